import { type Static, Type } from "@sinclair/typebox";
import { IdSchema, NameSchema } from "../workspaces/mod.ts";

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

/** What lists and responses show of a key: never the hash, the ciphertext or the raw value. */
export const ApiKeyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: "The first characters of the raw key." }),
  kind: Type.Union([Type.Literal("personal"), Type.Literal("service")], {
    description: "`personal` keys act as a person (identity_id); `service` keys are faceless and belong to the workspace.",
  }),
  identity_id: Type.Union([Type.String(), Type.Null()]),
  created_by: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()], { description: "Updated at most once a minute." }),
});
export type ApiKeyView = Static<typeof ApiKeyView>;

export const CreatedApiKey = Type.Composite([
  ApiKeyView,
  Type.Object({ key: Type.String({ description: "The raw key. Shown in this response only; store it now." }) }),
]);

export function toApiKeyView(k: ApiKeyRecord): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    kind: k.identity_id ? "personal" : "service",
    identity_id: k.identity_id,
    created_by: k.created_by,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}

export const CreateApiKeyDto = Type.Object(
  {
    name: Type.Optional(NameSchema),
    member_id: Type.Optional(IdSchema),
    service: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description:
      "By default the key acts as the caller. An owner/admin may pass `member_id` to create a key acting as that member, or `service: true` for a faceless service key that belongs to the workspace. The two are exclusive.",
  },
);
export type CreateApiKeyDto = Static<typeof CreateApiKeyDto>;

const KEY_PREFIX = "wks_";
const PREFIX_SHOWN = 12;
/** How stale `last_used_at` may get before a request writes it again: one write a minute, not one a request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

/** A raw key: `wks_` + 40 base32 characters = 200 random bits. */
export function generateRawKey(): string {
  const bytes = new Uint8Array(40);
  crypto.getRandomValues(bytes);
  let out = KEY_PREFIX;
  for (const b of bytes) out += alphabet[b & 31];
  return out;
}

export function looksLikeRawKey(value: string): boolean {
  return value.length === KEY_PREFIX.length + 40 && value.startsWith(KEY_PREFIX) && /^[a-z2-7]+$/.test(value.slice(4));
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, PREFIX_SHOWN);
}

export async function hashRawKey(raw: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(raw)));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
