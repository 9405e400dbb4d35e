import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { APPROVED_VIA, type ApprovedVia, UpdateTopicDto } from "./model.ts";

/**
 * Suggested edits (proposals) on a topic: a JSON Merge Patch (RFC 7396) over the topic's editable
 * fields, made against a version of the topic, reviewed by an owner/admin who merges it (a new
 * revision) or rejects it. docs/decisions/009-proposals-relations-graph.md.
 */
export const PROPOSAL_STATUSES = ["open", "merged", "rejected"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const MAX_SUMMARY_LENGTH = 500;

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const strict = { additionalProperties: false } as const;

// The fields a patch may touch are exactly those an edit may (UpdateTopicDto), with the same
// schemas: `null` (RFC 7396: remove) is accepted by every field but the title.
const { expected_version: _expected, ...patchFields } = UpdateTopicDto.properties;

export const ProposalPatch = Type.Object(patchFields, {
  ...strict,
  minProperties: 1,
  description:
    "A JSON Merge Patch (RFC 7396) over the topic's editable fields. A member names the new value; arrays (`tags`, `anchors`) are replaced whole. `null` removes a field: `tags` and `anchors` become empty lists, `body` empty, `kind` its default `note`, `area_id`, `repo_id` and `source_url` none; the title cannot be removed (`null` is a 400). Unknown fields and an empty patch are a 400. Tags are normalised when the proposal is opened; the stored patch keeps the `null`s as sent.",
});
export type ProposalPatch = Static<typeof ProposalPatch>;
export type ProposalField = keyof ProposalPatch & string;
/** The editable fields, in a stable order (conflicts are reported in it). */
export const PROPOSAL_FIELDS = Object.keys(patchFields) as ProposalField[];

/** A proposal as stored. */
export interface Proposal {
  id: string;
  workspace_id: string;
  topic_id: string;
  summary: string;
  patch: ProposalPatch;
  /** The topic version the patch was made against: a merge compares each touched field with it. */
  base_version: number;
  status: ProposalStatus;
  author_id: string | null;
  via: ApprovedVia;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  /** The topic's version once merged (the new revision, or the current one when nothing was left to change). */
  merged_version: number | null;
}

/** How a proposal was closed. */
export interface ProposalDecision {
  status: Exclude<ProposalStatus, "open">;
  decided_at: string;
  decided_by: string | null;
  merged_version: number | null;
}

export const ProposalView = Type.Object({
  id: Type.String(),
  topic_id: Type.String(),
  topic_slug: Type.Union([Type.String(), Type.Null()], { description: "The topic's current slug; null when the topic is gone." }),
  summary: Type.String(),
  patch: Type.Record(Type.String(), Type.Unknown(), { description: "The merge patch as stored (tags normalised)." }),
  base_version: Type.Integer({ description: "The topic version the patch was made against." }),
  status: literalUnion(PROPOSAL_STATUSES),
  author_id: Type.Union([Type.String(), Type.Null()], { description: "Identity id of the author; null for a faceless key." }),
  via: literalUnion(APPROVED_VIA, { description: "`agent` when opened by a faceless key or an OAuth client, else `human`." }),
  created_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  decided_by: Type.Union([Type.String(), Type.Null()], { description: "Identity id of the owner/admin who merged or rejected it." }),
  merged_version: Type.Union([Type.Integer(), Type.Null()], { description: "The topic version the merge produced." }),
});
export type ProposalView = Static<typeof ProposalView>;

export const OpenProposalDto = Type.Object(
  {
    summary: Type.String({ minLength: 1, maxLength: MAX_SUMMARY_LENGTH, pattern: "\\S", description: "What the edit does and why, 1 to 500 characters." }),
    patch: ProposalPatch,
    base_version: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "The topic version the patch was written against (the `ETag` of the read it started from); default the current version. Later than the current version is a 400.",
      }),
    ),
  },
  {
    ...strict,
    description:
      "Opens a suggested edit. Anyone who may write (members, faceless keys, OAuth clients with `work:write`). The topic is not changed: reads keep serving its current (e.g. reviewed) text until an owner/admin merges the proposal.",
  },
);
export type OpenProposalDto = Static<typeof OpenProposalDto>;
