/**
 * Contacts: what radar's directory knows of a person, paid for in credits (ADR 025, 061). Contact
 * paths (a person's e-mail, phone and LinkedIn URL) quoted for free and unlocked once per person
 * and kind, every record of the person showing the values; the holds of unlocks and their lease,
 * and the sweep that resolves a dead request's hold (ADR 041, 050, 055, 056); enrichment of a
 * run's results and their companies; and the price list (`RADAR_PRICES`). Builds on radar (its
 * directory and runs); radar imports nothing of it. Public surface of the module.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./prices.ts";
export * from "./policy.ts";
export { quoteContacts, unlockContacts } from "./contact-paths.ts";
export { enrichRun } from "./enrichment.ts";
export {
  DEFAULT_UNLOCK_LEASE_MS,
  DEFAULT_UNLOCK_SWEEP_MS,
  sweepUnlockHolds,
  unlockExpired,
  unlockLeaseMs,
  type UnlockSweep,
} from "./unlock-holds.ts";
export { unlockContextOfStores } from "./unlock-context.ts";
export { contactRecordWrite, type ContactValues, recordWriteReady } from "./unlock-records.ts";
export * from "./transfer.ts";
