import { Type } from "@sinclair/typebox";
import { DEFAULT_LIMIT } from "../../../core/kernel/mod.ts";
import { SEARCH_LIMIT, TOPIC_EVENT_TYPES, TOPIC_STATUSES, TOPIC_VIEWS } from "../../../core/topics/mod.ts";
import { booleanParam, enumParam, limitParam, offsetParam, uuidParam } from "../../http/query-schemas.ts";
import { strict } from "../../http/schemas.ts";

/**
 * Query strings of the topic routes as OpenAPI documents them: typed and bounded at the edge;
 * core gives them meaning (core/topics/topic-query.ts).
 */
const view = (def: string) =>
  enumParam(
    TOPIC_VIEWS,
    `\`full\` (with body), \`summary\` (body replaced by a 280-character \`excerpt\`), \`compact\` (id, slug, title, status, trust, stale, drifted, version). Default \`${def}\`.`,
  );
const tags = Type.Optional(
  Type.String({
    maxLength: 2000,
    description: "Comma-separated tag names, any-of (at most 20). Names are normalised; an unknown tag matches nothing.",
  }),
);
const stale = booleanParam("`true`: only reviewed topics not re-vouched within the workspace's review interval; `false`: all others.");

export const TopicListQuery = Type.Object(
  {
    limit: limitParam(DEFAULT_LIMIT),
    offset: offsetParam,
    status: enumParam(TOPIC_STATUSES, "One status. Without it, every status but archived."),
    tags,
    stale,
    docs: booleanParam("`true`: topics of kind `doc` (pages documenting a system); `false`: kind `note`."),
    auto: booleanParam("`true`: topics written by a program (origin `auto`); `false`: by a person."),
    manual: booleanParam("`true`: topics written by a person (origin `manual`); `false`: by a program. Contradicting `auto` is a 400."),
    repo: uuidParam("A repo id: topics linked to that repo."),
    has_external: booleanParam("`true`: topics with a `source_url` (an external page they mirror); `false`: without."),
    view: view("summary"),
  },
  strict,
);

export const TopicSearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, pattern: "\\S", description: "Search words (at most 8 distinct)." }),
    include_notes: booleanParam("`true` includes Notes (drafts). Default `false`."),
    tags,
    limit: limitParam(SEARCH_LIMIT),
    stale,
    view: view("summary"),
  },
  strict,
);

export const TopicGetQuery = Type.Object(
  {
    history: booleanParam("`true` adds `history`: the topic's revisions, newest first (at most 100)."),
    include_orphaned: booleanParam(
      "`true` adds `orphaned_anchors`: the anchors that match no file of the linked repo's current file index (a repo not indexed yet is indexed first, once; empty when the topic has no repo or the repo cannot be read).",
    ),
    view: view("full"),
  },
  strict,
);

export const TimelineQuery = Type.Object(
  {
    limit: limitParam(DEFAULT_LIMIT),
    offset: offsetParam,
    type: enumParam(TOPIC_EVENT_TYPES, "One event type."),
    repo_id: uuidParam("Only events of topics linked to this repo."),
  },
  strict,
);
