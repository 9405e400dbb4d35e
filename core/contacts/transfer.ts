/**
 * Contacts' kinds as they move between stores (core/kernel/store-transfer.ts, ADR 067, 072), in
 * write order: the unlocks as stored (`ContactUnlock`: claims pending or settled, with their
 * token), then the leases of holds in flight (`UnlockLease`: a request's token and when the sweep
 * may take it for dead). A lease is written after the unlocks because a store may derive from
 * the token's claims what its lease covers (PostgreSQL keeps the keys asked for).
 */
export const CONTACT_TRANSFER_KINDS = {
  unlocks: { name: "contacts.unlocks", tenant: true, key: ["entity_id", "kind"] },
  unlockLeases: { name: "contacts.unlock_leases", tenant: true, key: ["token"] },
} as const;
