import { type Static, Type } from "@sinclair/typebox";
import { IdSchema, NameSchema } from "../kernel/field-schemas.ts";
import type { ApiKeyRecord } from "./model.ts";

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
