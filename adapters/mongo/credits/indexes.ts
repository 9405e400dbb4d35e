import type { IndexDescription } from "mongodb";
import type { CREDIT_COLLECTION_NAMES } from "./collections.ts";

/** Credits' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const CREDIT_INDEXES: Record<keyof typeof CREDIT_COLLECTION_NAMES, IndexDescription[]> = {
  creditEntries: [
    // `_id` (`<workspace_id>:<seq>`) is the lock: each entry takes its account's next seq, and only
    // one can (ADR 021). This one serves the latest entry, history newest first, and the purge.
    { key: { workspace_id: 1, seq: 1 }, name: "workspace_seq_unique", unique: true },
    // An entry by its id (a hold a resolution names).
    { key: { workspace_id: 1, id: 1 }, name: "workspace_id_unique", unique: true },
    // An idempotency key writes one entry; a hold resolves once (`#<id>` when the entry has none).
    { key: { workspace_id: 1, idem: 1 }, name: "workspace_idem_unique", unique: true },
    { key: { workspace_id: 1, resolves: 1 }, name: "workspace_resolves_unique", unique: true },
    // History filtered by type or by run, newest first.
    { key: { workspace_id: 1, type: 1, seq: -1 }, name: "workspace_type_seq" },
    { key: { workspace_id: 1, run_id: 1, seq: -1 }, name: "workspace_run_seq" },
  ],
  // Lookups go by `_id`; this one serves the workspace's purge.
  idempotencyKeys: [{ key: { workspace_id: 1, expires_at: 1 }, name: "workspace_expires" }],
  // Imported history (`_id` `<workspace_id>:<seq>` as the archive numbered it): read in seq order; ids unique.
  importedCreditEntries: [
    { key: { workspace_id: 1, seq: 1 }, name: "workspace_seq_unique", unique: true },
    { key: { workspace_id: 1, id: 1 }, name: "workspace_id_unique", unique: true },
  ],
};
