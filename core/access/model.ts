/**
 * An API key as stored. The raw value is never stored in clear: `key_hash` (SHA-256 of the raw
 * key, hex) finds the key in one indexed lookup, `key_ciphertext` keeps it encrypted at rest
 * (AES-GCM under the server secret) so the operator can re-hash it should the hash scheme change.
 */
export interface ApiKeyRecord {
  id: string;
  workspace_id: string;
  name: string;
  /** First characters of the raw key, safe to show so people can tell keys apart. */
  prefix: string;
  /** The person the key acts as; null for a faceless service key. */
  identity_id: string | null;
  created_by: string | null;
  key_hash: string;
  key_ciphertext: string;
  created_at: string;
  last_used_at: string | null;
}
