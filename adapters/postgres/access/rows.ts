import type { ApiKeyRecord } from "../../../core/access/model.ts";
import { iso, isoOrNull } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";

/** Column list and row mapper of API keys. */
export function apiKeyColumns(alias: string, prefix = ""): string {
  return [
    "id",
    "workspace_id",
    "name",
    "prefix",
    "identity_id",
    "created_by",
    "key_hash",
    "key_ciphertext",
    "created_at",
    "last_used_at",
  ]
    .map((c) => `${alias}.${c} as ${prefix}${c}`)
    .join(", ");
}

export function toApiKey(r: Row, prefix = ""): ApiKeyRecord {
  return {
    id: str(r[`${prefix}id`]),
    workspace_id: str(r[`${prefix}workspace_id`]),
    name: str(r[`${prefix}name`]),
    prefix: str(r[`${prefix}prefix`]),
    identity_id: strOrNull(r[`${prefix}identity_id`]),
    created_by: strOrNull(r[`${prefix}created_by`]),
    key_hash: str(r[`${prefix}key_hash`]),
    key_ciphertext: str(r[`${prefix}key_ciphertext`]),
    created_at: iso(r[`${prefix}created_at`]),
    last_used_at: isoOrNull(r[`${prefix}last_used_at`]),
  };
}
