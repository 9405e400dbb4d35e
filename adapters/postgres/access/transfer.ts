import { ACCESS_TRANSFER_KINDS as K } from "../../../core/access/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "../driver.ts";
import { sqlKind } from "../workspaces/mod.ts";
import { toApiKey } from "./rows.ts";

const text = (name: string, cast = "text") => ({ name, cast });

/** Access's kind on PostgreSQL/PGlite: keys as stored, the hash's unique index leaves a taken hash alone. */
export function sqlAccessTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind(db, {
      ...K.apiKeys,
      table: "api_keys",
      columns: [
        text("workspace_id", "uuid"),
        text("id", "uuid"),
        text("name"),
        text("prefix"),
        text("identity_id", "uuid"),
        text("created_by", "uuid"),
        text("key_hash"),
        text("key_ciphertext"),
        text("created_at", "timestamptz"),
        text("last_used_at", "timestamptz"),
      ],
      toDoc: (r) => toApiKey(r) as unknown as TransferDoc,
    }),
  ];
}
