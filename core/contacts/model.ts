/**
 * What contacts stores: the unlock of each contact path of each person, claimed, then settled
 * once (ADR 025, 041, 055). Plain records; the views the API answers are in dto.ts.
 */

export const CONTACT_KINDS = ["email", "phone", "linkedin"] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/**
 * The unlock of one contact path of one entity, forever (ADR 025): claimed `pending` under a
 * unique (workspace, entity, kind) key before the directory is asked, then settled `unlocked` with
 * its value or `unavailable`. `token` names the request holding a pending claim; a claim pending
 * longer than a request lives may be taken over.
 */
export interface ContactUnlock {
  workspace_id: string;
  entity_id: string;
  kind: ContactKind;
  state: "pending" | "unlocked" | "unavailable";
  value: string | null;
  /** What the unlock was charged (0 until settled, and for a miss). */
  credits: number;
  token: string;
  claimed_at: string;
  settled_at: string | null;
}
