import { type Static, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { Area, MemberView, Repo, Workspace } from "../workspaces/mod.ts";
import { ProposalView, RelationView, TagView, Topic, TopicEventView, TopicSlugSchema } from "../topics/mod.ts";
import { CollectionView, EntityView, RECORD_CHANGE_TYPES, RecordChangeView, RecordView } from "../collections/mod.ts";
import { LedgerEntry } from "../credits/mod.ts";
import { CONTACT_KINDS } from "../contacts/mod.ts";
import {
  CompanyFilter,
  CRITERION_KINDS,
  MonitorView,
  PersonFilter,
  QuoteView,
  RESULT_OUTCOMES,
  RunView,
  SearchView,
  TraceStepView,
} from "../radar/mod.ts";
import type { ArchiveKind } from "./model.ts";
import { omit, strictSchema } from "./strict-schema.ts";

/**
 * One schema per kind's line: what the API shows of the object (its view, from the module's
 * dto.ts), plus what an import needs to put it back (ids the view leaves out, history, version),
 * never what is derived (counts, trust, excerpts) nor what is secret. Every object refuses fields
 * it does not declare (strict-schema.ts).
 */

const Id = Type.String({ pattern: UUID_PATTERN });
const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const line = <P extends TProperties>(props: P, description: string) => strictSchema(Type.Object(props, { description }));

/**
 * A clone URL names where the code is, never who may read it: `https://user:token@host/…`
 * (any user part on http/https) and a password anywhere are refused. `git@host:path` and
 * `ssh://git@host/path` carry a user name only.
 */
export const CLONE_URL_WITHOUT_CREDENTIALS = "^(?!https?://[^/]*@)(?![a-z][a-z0-9+.-]*://[^/@]*:[^/@]*@).*$";

const WorkspaceLine = line(Workspace.properties, "The workspace.");
const MemberLine = line(omit(MemberView.properties, "workspace_id"), "A member: the membership, the person's e-mail and name.");
const AreaLine = line(omit(Area.properties, "workspace_id"), "An area.");
const RepoLine = line(
  { ...omit(Repo.properties, "workspace_id"), clone_url: Nullable(Type.String({ pattern: CLONE_URL_WITHOUT_CREDENTIALS })) },
  "A linked repo; its clone URL without credentials.",
);
const TagLine = line(omit(TagView.properties, "topic_count"), "A tag.");
const TopicLine = line(omit(Topic.properties, "workspace_id"), "A topic as stored, its governance, drift and merges included.");
const TopicRedirectLine = line({ slug: TopicSlugSchema, topic_id: Id }, "An old slug and the topic it answers with.");
const TopicHistoryLine = line(
  { ...TopicEventView.properties, snapshot: Nullable(TopicLine) },
  "One change of a topic: the event and the topic as it left it (null once the topic was deleted).",
);
const ProposalLine = line(omit(ProposalView.properties, "topic_slug"), "A suggested edit.");
const RelationLine = line(omit(RelationView.properties, "direction", "topic"), "A relation: `from` relates to `to` by `type`.");
const ShareLinkLine = line(
  {
    id: Id,
    topic_id: Id,
    token_hash: Nullable(Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the token; null once revoked." })),
    created_by: Nullable(Type.String()),
    created_at: Timestamp,
    revoked_at: Nullable(Timestamp),
  },
  "A public link: the hash of its token, never the token.",
);
const CollectionLine = line(Type.Required(CollectionView).properties, "A collection with its schema, views and settings.");
const EntityLine = line(EntityView.properties, "An entity.");
const RecordLine = line(Type.Required(RecordView).properties, "A record.");
const RecordHistoryLine = line(
  {
    id: Id,
    collection_id: Id,
    record_id: Id,
    ...RecordChangeView.properties,
    type: literalUnion(RECORD_CHANGE_TYPES),
    actor_kind: literalUnion(["human", "agent"] as const),
  },
  "One change of a record.",
);
const LedgerLine = line(LedgerEntry.properties, "An entry of the credit ledger.");
const CriterionFilterSchema = Type.Union([CompanyFilter, PersonFilter]);
const CriterionLine = line(
  { topic_id: Id, slug: TopicSlugSchema, kind: literalUnion(CRITERION_KINDS), filter: CriterionFilterSchema },
  "A radar criterion, as its topic's block states it.",
);
const SearchLine = line({ ...SearchView.properties, created_by: Nullable(Type.String()) }, "A radar search.");
const RunLine = line(
  {
    ...RunView.properties,
    quote: Nullable(Type.Object({ ...QuoteView.properties, filter: CriterionFilterSchema })),
    hold_id: Nullable(Id),
    actor_id: Nullable(Type.String()),
    read: Type.Integer({ minimum: 0, description: "Prospects read so far." }),
    version: Type.Integer({ minimum: 1 }),
  },
  "A radar run (the worker's lease, cursor and attempt stay behind).",
);
const RunTraceLine = line({ run_id: Id, ...TraceStepView.properties }, "A step of a run's trace.");
const RunResultLine = line(
  {
    run_id: Id,
    provider_id: Type.String({ minLength: 1 }),
    position: Type.Integer({ minimum: 1 }),
    entity_id: Id,
    record_id: Id,
    outcome: literalUnion(RESULT_OUTCOMES),
    fields: Type.Record(Type.String(), Type.Unknown()),
    at: Timestamp,
  },
  "What a run did with one prospect.",
);
const MonitorLine = line(
  {
    ...MonitorView.properties,
    first_run_id: Id,
    last_run_id: Nullable(Id),
    version: Type.Integer({ minimum: 1 }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  "A radar monitor.",
);
const ContactUnlockLine = line(
  {
    entity_id: Id,
    kind: literalUnion(CONTACT_KINDS),
    state: literalUnion(["unlocked", "unavailable"] as const),
    value: Nullable(Type.String({ description: "The e-mail, phone number or LinkedIn URL; null when unavailable." })),
    credits: Type.Integer({ minimum: 0 }),
    claimed_at: Timestamp,
    settled_at: Timestamp,
  },
  "A contact path looked up (a pending claim is not exported).",
);

/** Each kind's line schema. */
export const ARCHIVE_LINE_SCHEMAS = {
  workspace: WorkspaceLine,
  members: MemberLine,
  areas: AreaLine,
  repos: RepoLine,
  tags: TagLine,
  topics: TopicLine,
  topic_redirects: TopicRedirectLine,
  topic_history: TopicHistoryLine,
  proposals: ProposalLine,
  relations: RelationLine,
  share_links: ShareLinkLine,
  collections: CollectionLine,
  entities: EntityLine,
  records: RecordLine,
  record_history: RecordHistoryLine,
  credit_ledger: LedgerLine,
  radar_criteria: CriterionLine,
  radar_searches: SearchLine,
  radar_runs: RunLine,
  radar_run_trace: RunTraceLine,
  radar_run_results: RunResultLine,
  radar_monitors: MonitorLine,
  contact_unlocks: ContactUnlockLine,
} as const satisfies Record<ArchiveKind, TSchema>;

/** A line of kind `K`. */
export type ArchiveLine<K extends ArchiveKind> = Static<(typeof ARCHIVE_LINE_SCHEMAS)[K]>;
