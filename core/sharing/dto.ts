import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { TOPIC_STATUSES, TRUST_VERDICTS } from "../topics/mod.ts";
import { IdSchema } from "../kernel/field-schemas.ts";
import { MAX_SHARE_MESSAGE_LENGTH, MAX_SHARE_RECIPIENTS } from "./model.ts";

/** What crosses the sharing API: views of links and inbox entries, and the share-with body. */

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const strict = { additionalProperties: false } as const;

// ---- responses ----

export const CreatedShareLink = Type.Object({
  token: Type.String({
    description: "The raw token (43 base64url characters, 256 random bits). Shown in this response only: it is stored hashed.",
  }),
  url: Type.String({ description: "The public page, from the request's origin: `<origin>/s/{token}`." }),
  path: Type.String({ description: "`/s/{token}`; the same page also answers at `/api/v1/s/{token}`." }),
  created_at: Timestamp,
});
export type CreatedShareLink = Static<typeof CreatedShareLink>;

export const ShareLinkStatus = Type.Object({
  active: Type.Boolean({ description: "Whether the topic has a working public link." }),
  created_at: Nullable(Timestamp),
  created_by: Nullable(Type.String({ description: "Identity id of who issued the link; null for a faceless key or when none is active." })),
});
export type ShareLinkStatus = Static<typeof ShareLinkStatus>;

/** The topic as the public page and its Markdown show it: nothing about the workspace or people. */
export interface SharedTopic {
  title: string;
  body: string;
  tags: string[];
  trust: (typeof TRUST_VERDICTS)[number];
  stale: boolean;
  drifted: boolean;
  updated_at: string;
}

export const NoteShareView = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  topic_id: Type.String(),
  recipient_member_id: Type.String(),
  sender_id: Nullable(Type.String({ description: "Identity id of the sender; null for a faceless key." })),
  message: Nullable(Type.String()),
  created_at: Timestamp,
  read_at: Nullable(Timestamp),
  topic: Type.Object({
    slug: Type.String(),
    title: Type.String(),
    status: literalUnion(TOPIC_STATUSES),
    trust: literalUnion(TRUST_VERDICTS),
    stale: Type.Boolean(),
    drifted: Type.Boolean(),
  }),
});
export type NoteShareView = Static<typeof NoteShareView>;

// ---- request bodies ----

export const ShareNoteDto = Type.Object(
  {
    member_ids: Type.Array(IdSchema, {
      minItems: 1,
      maxItems: MAX_SHARE_RECIPIENTS,
      description:
        "Recipients: member ids of this workspace, 1 to 50. Duplicates collapse; an id that is not a member is a 400 naming it, and nothing is shared.",
    }),
    message: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_SHARE_MESSAGE_LENGTH, description: "Shown with the note in each inbox." }),
    ),
  },
  { ...strict, description: "Puts the note in each recipient's inbox (`GET /workspaces/{slug}/shared`)." },
);
export type ShareNoteDto = Static<typeof ShareNoteDto>;
