import type { CapacityClaim, CapacityGate, CapacityRefusal } from "../kernel/capacity.ts";
import type { TopicStores } from "../topics/mod.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { CollectionStatus } from "./archetype.ts";
import type { Collection, CollectionRecord, Entity, RecordChange } from "./model.ts";
import type { AggregateGroup, CompiledAggregate } from "./record-aggregate.ts";
import type { CompiledFilter } from "./record-filter.ts";
import type { DeclaredRollup } from "./record-rollup.ts";
import type { CompiledSort, KeysetPosition } from "./record-sort.ts";

/**
 * Store ports of the collections module. Absence is `null` or `[]`; expected refusals are
 * returned strings. Every write is atomic on its own; on a backend without transactions, a
 * write cut short is completed (or undone) by the next call, as each method says.
 */

/** A page of an id-ordered listing: newest first, strictly after (older than) `afterId` when given. */
export interface IdPage {
  limit: number;
  afterId?: string;
}

export interface Slice<T> {
  items: T[];
  has_more: boolean;
}

export interface CollectionFilter {
  /** Any of these (never empty). */
  statuses: CollectionStatus[];
  ownerId?: string;
  /** `updated_at` strictly after this ISO timestamp. */
  updatedAfter?: string;
  /** Lower-case words that must each occur in the lower-cased name. */
  nameWords?: string[];
}

/** What a purge removes (or, as a plan, would remove). */
export interface PurgePlan {
  collection_id: string;
  records: number;
  history_entries: number;
  outcomes: number;
  /** records linked to an entity (the entities stay) */
  entity_links: number;
}

export interface CollectionStore {
  get(workspaceId: string, id: string): Promise<Collection | null>;
  /**
   * The collection as this process last read it here (read now when it has none, or when
   * `fresh`): possibly stale, so only for a write that checks its version in the same statement
   * (`RecordStore.insertClaiming`'s `collectionVersion`, ADR 058). Shared: callers must not mutate it.
   * Stores whose record inserts cannot check the version leave it out.
   */
  known?(workspaceId: string, id: string, fresh?: boolean): Promise<Collection | null>;
  /** Newest first (id descending). */
  list(workspaceId: string, filter: CollectionFilter, page: IdPage): Promise<Slice<Collection>>;
  insert(c: Collection): Promise<void>;
  /** Replaces the collection stored at `c.version - 1`. */
  update(c: Collection): Promise<"ok" | "version_conflict" | "not_found">;
  /** What purging the collection would remove now; null when it does not exist. */
  purgePlan(workspaceId: string, id: string): Promise<PurgePlan | null>;
  /**
   * Removes the collection at `expectedVersion`, its records, and their history. Without
   * transactions, the collection is first marked as being purged (from then on `get` and `list`
   * no longer see it) and a purge cut short is finished by calling `purge` again, with any version.
   */
  purge(workspaceId: string, id: string, expectedVersion: number): Promise<PurgePlan | "version_conflict" | "not_found">;
}

/** A change to apply: the record's next state and the history entry recording it (same version). */
export interface RecordWrite {
  record: CollectionRecord;
  change: RecordChange;
}

export interface RecordQuery {
  filter: CompiledFilter | null;
  sort: CompiledSort;
  /** Strictly after this position in `sort` order (see record-sort.ts `isAfter`). */
  after: KeysetPosition | null;
  /** 1 to 200 (an export reads pages of 1,000: record-export.ts) */
  limit: number;
  /** Lower-case words that must each occur in `search_text`. */
  words?: string[];
}

/** What deleting a record removes besides itself. */
export interface RecordRemoval {
  record_id: string;
  history_entries: number;
  outcomes: number;
}

export interface RecordStore {
  get(workspaceId: string, collectionId: string, id: string): Promise<CollectionRecord | null>;
  /** The records of these ids in the collection (at most 200), in no particular order. */
  getMany(workspaceId: string, collectionId: string, ids: readonly string[]): Promise<CollectionRecord[]>;
  /**
   * The records of these entities in the collection (at most 1,000 ids; a served index, no scan),
   * in no particular order: radar finds the record an entity already has there.
   */
  byEntities(workspaceId: string, collectionId: string, entityIds: readonly string[]): Promise<CollectionRecord[]>;
  /** In `q.sort` order, at most `q.limit`; `has_more` when another record follows. */
  query(workspaceId: string, collectionId: string, q: RecordQuery): Promise<Slice<CollectionRecord>>;
  /** At most `spec.maxGroups + 1` groups (so the caller can tell more exist), largest count first. */
  aggregate(workspaceId: string, collectionId: string, spec: CompiledAggregate): Promise<AggregateGroup[]>;
  /**
   * A declared aggregate answered from the rollup the store keeps of it (ADR 039), at most
   * `spec.maxGroups + 1` groups in `compareGroups` order; null when the store keeps no rollup of
   * `rollup.shape` under `rollup.id` (the caller then scans with `aggregate`). A store that keeps
   * rollups maintains them with every record write, in the write's transaction, and builds one
   * when `CollectionStore.insert`/`update` stores a collection declaring it.
   */
  aggregateRollup(
    workspaceId: string,
    collectionId: string,
    rollup: Pick<DeclaredRollup, "id" | "shape">,
    spec: CompiledAggregate,
  ): Promise<AggregateGroup[] | null>;
  /** Inserts a record (version 1) and its history entry. "collection_not_found" when the collection is gone. */
  insert(w: RecordWrite): Promise<"ok" | "collection_not_found">;
  /**
   * `insert` with the plan's unit of `records` claimed in the same atomic write (ADR 058): the
   * workspace's usage counter (seeded from an exact count the first time) takes one when
   * `used + 1 ≤ claim.limit` (always when null) and the record is stored only then; a refusal
   * writes nothing and says how many are held, and a failed insert takes nothing. Exact under
   * concurrency. With `collectionVersion`, the record is stored only while its collection is at
   * that version: "collection_changed" (changed or gone), nothing written, no unit taken. A store
   * that cannot make these one write leaves it out, and the caller claims through the capacity
   * gate first.
   */
  insertClaiming?(
    w: RecordWrite,
    claim: CapacityClaim,
    collectionVersion?: number | null,
  ): Promise<"ok" | "collection_not_found" | "collection_changed" | CapacityRefusal>;
  /** Replaces the record stored at `w.record.version - 1` and appends `w.change`. */
  update(w: RecordWrite): Promise<"ok" | "version_conflict" | "not_found">;
  deletePlan(workspaceId: string, collectionId: string, id: string): Promise<RecordRemoval | null>;
  /** Deletes the record at `expectedVersion` (any when null) and its history. */
  delete(
    workspaceId: string,
    collectionId: string,
    id: string,
    expectedVersion: number | null,
  ): Promise<RecordRemoval | "version_conflict" | "not_found">;
  /** History entries, newest first, at most `limit`, with version below `beforeVersion` when given. */
  history(workspaceId: string, collectionId: string, id: string, limit: number, beforeVersion?: number): Promise<RecordChange[]>;
  /**
   * The writes of an import, all of them or none (docs/decisions/063-records-csv-and-ndjson.md): the
   * batches as they come, then, when every one applied, the whole is kept; any refusal or a
   * `batches` that throws leaves nothing. See `RecordImportJob` and each adapter for how.
   */
  importRecords(workspaceId: string, collectionId: string, job: RecordImportJob): Promise<RecordImportOutcome>;
  /**
   * True when `importRecords` may run while its caller reads these stores (the writes of the import on a
   * connection of their own): the caller then checks and writes a file in one reading, handing
   * batches over as they are checked (and throwing from `batches` on the first problem). False or
   * absent: every batch is read only after the whole file was checked (PGlite, one connection,
   * would wait on itself).
   */
  readonly importAlongside?: boolean;
}

/** One batch of the writes of an import. */
export interface RecordImportBatch {
  /** New records (version 1) with their `record.created` entries. */
  creates: RecordWrite[];
  /** Records to change, each at the version the import read. */
  updates: RecordImportUpdate[];
}

export interface RecordImportUpdate {
  id: string;
  /** The record must still be at this version when the import writes it (else the import writes nothing). */
  version: number;
  /** The write of the record as the store holds it (at `version`); null: it changes nothing (`unchanged`). */
  next(current: CollectionRecord): RecordWrite | null;
}

export interface RecordImportJob {
  /** The collection's version the rows were checked against: when it moved, nothing is written. */
  collectionVersion: number;
  batches: AsyncIterable<RecordImportBatch>;
  /**
   * The plan's units of the creates, claimed in the own write of the import by a store that can
   * (`RecordStore.insertClaiming`'s stores, ADR 058): all of them or nothing. Null: not claimed here
   * (the caller claimed them first through the gate, or counts nothing).
   */
  claim: CapacityClaim | null;
}

export type RecordImportOutcome =
  | { written: { created: number; updated: number; unchanged: number } }
  | "collection_changed"
  | "collection_not_found"
  /** A record to change was not at its version any more (or gone: `current_version` null). */
  | { conflict: string; current_version: number | null }
  | CapacityRefusal;

export interface EntityStore {
  get(workspaceId: string, id: string): Promise<Entity | null>;
  /** The entities of these ids that exist, in no particular order (at most 1,000 ids). */
  getMany(workspaceId: string, ids: readonly string[]): Promise<Entity[]>;
  /** The entities of one kind with these `dedup_norm` keys (at most 1,000; served by the unique key). */
  byDedupKeys(workspaceId: string, kind: string, dedupNorms: readonly string[]): Promise<Entity[]>;
  /** Newest first (id descending), of one kind when given. */
  list(workspaceId: string, kind: string | null, page: IdPage): Promise<Slice<Entity>>;
  /**
   * Inserts `fresh` unless an entity of the same (workspace, kind, dedup_norm) exists; then
   * `merge(existing)` gives its next state (version + 1), or null to leave it as it is. Concurrent
   * upserts of one pair make one entity: the loser merges into the winner (re-reading on a
   * version conflict). An entity without `dedup_norm` is always inserted.
   */
  upsert(fresh: Entity, merge: (existing: Entity) => Entity | null): Promise<{ entity: Entity; created: boolean; previous: Entity | null }>;
  /**
   * Compare-and-set of an entity known to exist: writes `next`'s `name`, `attributes`, `version`
   * and `updated_at` over the entity stored at `next.version - 1` (its kind and keys stay). Cheaper
   * than `upsert` where the entity was just read (one write on PostgreSQL, not two).
   */
  update(next: Entity): Promise<"ok" | "version_conflict" | "not_found">;
}

/** Collections' stores (not to be confused with `CollectionStore`, one of them), one bundle per adapter (adapters/<adapter>/collections/). */
export interface CollectionStores {
  collections: CollectionStore;
  records: RecordStore;
  entities: EntityStore;
}

/** What Collections' use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type CollectionDeps = CoreDeps<CollectionStores & TopicStores & WorkspaceStores> & {
  /** The plan-limits gate (billing's `planLimitsGate`); without it nothing is counted or refused. */
  capacity?: CapacityGate;
};
