import type { ApiKeyRecord } from "../../../core/access/model.ts";

/** The stored key: the model's fields, with its id as `_id`. */
export type ApiKeyDoc = Omit<ApiKeyRecord, "id"> & { _id: string };

export function toApiKey(d: ApiKeyDoc): ApiKeyRecord {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    name: d.name,
    prefix: d.prefix,
    identity_id: d.identity_id ?? null,
    created_by: d.created_by ?? null,
    key_hash: d.key_hash,
    key_ciphertext: d.key_ciphertext,
    created_at: d.created_at,
    last_used_at: d.last_used_at ?? null,
  };
}
export function apiKeyDoc(k: ApiKeyRecord): ApiKeyDoc {
  return {
    _id: k.id,
    workspace_id: k.workspace_id,
    name: k.name,
    prefix: k.prefix,
    identity_id: k.identity_id,
    created_by: k.created_by,
    key_hash: k.key_hash,
    key_ciphertext: k.key_ciphertext,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}
