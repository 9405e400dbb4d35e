import { Type } from "@sinclair/typebox";
import { TOPIC_EVENT_TYPES } from "../../core/topics/model.ts";
import { strict } from "../http/schemas.ts";

/**
 * Query strings of the topic routes as OpenAPI documents them. Every value is a string; patterns
 * catch malformed ones at the edge and core gives them meaning (core/topics/topic-query.ts).
 */
const bool = (description: string) => Type.Optional(Type.String({ pattern: "^(true|false)$", description }));
const limit = (max: number, def: number) =>
  Type.Optional(Type.String({ pattern: "^[0-9]+$", description: `1 to ${max} (default ${def}). Over ${max} is a 400.` }));
const offset = Type.Optional(Type.String({ pattern: "^[0-9]+$", description: "Rows to skip, 0 to 10000 (default 0)." }));
const view = (def: string) =>
  Type.Optional(
    Type.String({
      pattern: "^(full|summary|compact)$",
      description: `\`full\` (with body), \`summary\` (body replaced by a 280-character \`excerpt\`), \`compact\` (id, slug, title, status, trust, stale, drifted, version). Default \`${def}\`.`,
    }),
  );
const tags = Type.Optional(
  Type.String({ maxLength: 2000, description: "Comma-separated tag names, any-of (at most 20). Names are normalised; an unknown tag matches nothing." }),
);
const stale = bool("`true`: only reviewed topics not re-vouched within the workspace's review interval; `false`: all others.");

export const TopicListQuery = Type.Object(
  {
    limit: limit(200, 50),
    offset,
    status: Type.Optional(Type.String({ pattern: "^(draft|proposed|reviewed|archived)$", description: "One status. Without it, every status but archived." })),
    tags,
    stale,
    docs: bool("`true`: topics of kind `doc` (pages documenting a system); `false`: kind `note`."),
    auto: bool("`true`: topics written by a program (origin `auto`); `false`: by a person."),
    manual: bool("`true`: topics written by a person (origin `manual`); `false`: by a program. Contradicting `auto` is a 400."),
    repo: Type.Optional(Type.String({ description: "A repo id: topics linked to that repo." })),
    has_external: bool("`true`: topics with a `source_url` (an external page they mirror); `false`: without."),
    view: view("summary"),
  },
  strict,
);

export const TopicSearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, description: "Search words (at most 8 distinct)." }),
    include_notes: bool("`true` includes Notes (drafts). Default `false`."),
    tags,
    limit: limit(100, 50),
    stale,
    view: view("summary"),
  },
  strict,
);

export const TopicGetQuery = Type.Object(
  {
    history: bool("`true` adds `history`: the topic's revisions, newest first (at most 100)."),
    include_orphaned: bool(
      "`true` adds `orphaned_anchors`: the anchors that match no file of the linked repo's current file index (a repo not indexed yet is indexed first, once; empty when the topic has no repo or the repo cannot be read).",
    ),
    view: view("full"),
  },
  strict,
);

export const TimelineQuery = Type.Object(
  {
    limit: limit(200, 50),
    offset,
    type: Type.Optional(Type.String({ pattern: `^(${TOPIC_EVENT_TYPES.join("|").replaceAll(".", "\\.")})$`, description: "One event type." })),
    repo_id: Type.Optional(Type.String({ description: "Only events of topics linked to this repo." })),
  },
  strict,
);
