/**
 * Sharing's transfer kinds (ADR 067, ADR 071): a topic's active public link (its token's hash, so
 * a copied link opens with the same token) and inbox entries. Documents are `ShareLink` and
 * `NoteShare` as stored. Revoked links are not stored, so they do not move.
 */
export const SHARING_TRANSFER_KINDS = {
  shareLinks: { name: "sharing.share_links", tenant: true, key: ["topic_id"] },
  noteShares: { name: "sharing.note_shares", tenant: true, key: ["id"] },
} as const;
