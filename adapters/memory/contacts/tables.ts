import type { ContactUnlock, UnlockLease } from "../../../core/contacts/mod.ts";

/** The in-memory tables of contacts (the adapter's composition shares one object of every module's tables). */
export class ContactTables {
  /** `${workspace_id}:${entity_id}:${kind}` → unlock */
  radarUnlocks = new Map<string, ContactUnlock>();
  /** `${workspace_id}:${token}` → the lease of an unlock's hold, until its finish (ADR 055) */
  radarUnlockLeases = new Map<string, UnlockLease>();
}
