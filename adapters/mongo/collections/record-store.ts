/**
 * Records without multi-document transactions (docs/decisions/005-mongo-without-transactions.md;
 * documents in documents.ts, queries in record-query.ts).
 *
 * - **Insert**: the collection must exist and not be purging; the record document (its `_id`
 *   decides; a repeated call goes on), then its `record.created` entry. Then the collection is
 *   checked again: a purge that marked it meanwhile may have deleted its records before this one
 *   arrived, so the insert takes its writes back and answers "collection_not_found". (A purge
 *   marks before it deletes and an insert writes before it checks, so one of the two sees the
 *   other: no record outlives its collection.) Cut short after the record, the record has no
 *   `record.created` entry (history one entry short), as a topic insert can be.
 * - **Update: the history entry is the lock.** `record_changes` is unique (workspace_id,
 *   record_id, version). A write of version v+1 checks that the record is at v, inserts its
 *   entry carrying the next state in `next`, replaces the record (only forward), then unsets
 *   `next` on the entry of v. Of concurrent writers of v+1 exactly one inserts; the others answer
 *   "version_conflict". The newest entry keeps `next`, so a record whose write was cut short after
 *   its entry (or, on FerretDB, moved back by a late replace) is rolled forward by the next
 *   update, delete or `history` of it. A write that finds the record gone after its entry (a
 *   delete or purge in between) takes its entry back: "not_found".
 * - **Delete** takes version v+1 too, with a lock entry `deleting: true` (never history), then
 *   deletes the record and its entries (the lock last, with them). Cut short, the lock remains: the
 *   next update, delete or `history` meeting it finishes the deletion ("not_found").
 *
 * Reads check nothing more (the routes look the collection up first). `get` does not heal: a
 * record whose write was cut short shows its previous version until the next write or `history`.
 */
import type { CollectionCollections } from "./collections.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { CollectionRecord, RecordChange } from "../../../core/collections/model.ts";
import type {
  RecordImportJob,
  RecordImportOutcome,
  RecordQuery,
  RecordRemoval,
  RecordStore,
  RecordWrite,
  Slice,
} from "../../../core/collections/ports.ts";
import type { AggregateGroup, CompiledAggregate } from "../../../core/collections/record-aggregate.ts";
import { backoff } from "../retry.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import {
  CHANGE_FIELDS_ONLY,
  type RecordChangeDoc,
  recordChangeDoc,
  type RecordChangesDoc,
  type RecordDoc,
  recordDoc,
  toRecord,
  toRecordChange,
  WRITE_OPTIONS,
} from "./documents.ts";
import { and, countGroupStage, filterQuery, GroupFold, pageReads, wordsQuery } from "./record-query.ts";
import { MongoRecordImports } from "./record-import.ts";

/** Rounds of "heal and try again" inside one call. */
const MAX_ROUNDS = 5;

const VERSION_ONLY = { projection: { version: 1 } } as const;

/** What rolling a record forward found. */
type Healed = "rolled" | "current" | "deleted" | "gone";

const isLock = (d: RecordChangesDoc): boolean => "deleting" in d && d.deleting === true;

export class MongoRecordStore implements RecordStore {
  readonly #imports: MongoRecordImports;

  constructor(private readonly c: CollectionCollections) {
    this.#imports = new MongoRecordImports(c);
  }

  // ---- reads ----

  async get(workspaceId: string, collectionId: string, id: string): Promise<CollectionRecord | null> {
    const d = await this.c.records.findOne({ _id: id, workspace_id: workspaceId, collection_id: collectionId });
    return d ? toRecord(d) : null;
  }

  async getMany(workspaceId: string, collectionId: string, ids: readonly string[]): Promise<CollectionRecord[]> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return [];
    const docs = await this.c.records.find({ _id: { $in: wanted }, workspace_id: workspaceId, collection_id: collectionId }).toArray();
    return docs.map(toRecord);
  }

  async byEntities(workspaceId: string, collectionId: string, entityIds: readonly string[]): Promise<CollectionRecord[]> {
    const wanted = [...new Set(entityIds)];
    if (wanted.length === 0) return [];
    const docs = await this.c.records.find({ workspace_id: workspaceId, collection_id: collectionId, entity_id: { $in: wanted } })
      .toArray();
    return docs.map(toRecord);
  }

  async query(workspaceId: string, collectionId: string, q: RecordQuery): Promise<Slice<CollectionRecord>> {
    const limit = Math.max(0, Math.trunc(q.limit));
    const base = and(
      { workspace_id: workspaceId, collection_id: collectionId },
      q.filter ? filterQuery(q.filter) : {},
      wordsQuery(q.words),
    );
    const docs: RecordDoc[] = [];
    for (const read of pageReads(q.sort, q.after)) {
      const want = limit + 1 - docs.length;
      if (want <= 0) break;
      docs.push(...(await this.c.records.find(and(base, read.query) as never).sort(read.sort).limit(want).toArray()));
    }
    return { items: docs.slice(0, limit).map(toRecord), has_more: docs.length > limit };
  }

  /**
   * No rollups here: without transactions (FerretDB), a rollup updated after the record write
   * would be wrong whenever a write is cut short between the two, and nothing would notice. A
   * declared aggregate is answered by the scan, which is always right (ADR 039).
   */
  async aggregateRollup(): Promise<AggregateGroup[] | null> {
    return null;
  }

  async aggregate(workspaceId: string, collectionId: string, spec: CompiledAggregate): Promise<AggregateGroup[]> {
    const match = and({ workspace_id: workspaceId, collection_id: collectionId }, spec.filter ? filterQuery(spec.filter) : {});
    const fold = new GroupFold(spec);
    if (spec.metrics.length === 0) {
      // Counts only: one accumulator, the one FerretDB v1 computes right (record-query.ts).
      const rows = this.c.records.aggregate<{ _id: Record<string, unknown> | null; count: number }>([
        { $match: match },
        countGroupStage(spec),
      ]);
      for await (const row of rows) fold.addCountRow(row._id, row.count);
    } else {
      const docs = this.c.records.find(match as never, { projection: fold.projection() });
      for await (const d of docs) fold.addRecord(d);
    }
    return fold.result(spec.maxGroups + 1);
  }

  async deletePlan(workspaceId: string, collectionId: string, id: string): Promise<RecordRemoval | null> {
    const cur = await this.c.records.findOne({ _id: id, workspace_id: workspaceId, collection_id: collectionId }, VERSION_ONLY);
    return cur ? this.removal(workspaceId, id) : null;
  }

  async history(workspaceId: string, collectionId: string, id: string, limit: number, beforeVersion?: number): Promise<RecordChange[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    for (let round = 0;; round++) {
      const [newest, doc] = await Promise.all([
        this.c.recordChanges.find({ workspace_id: workspaceId, record_id: id }, { projection: { version: 1, deleting: 1 } }).sort({
          version: -1,
        }).limit(1).next(),
        this.c.records.findOne({ _id: id, workspace_id: workspaceId, collection_id: collectionId }, VERSION_ONLY),
      ]);
      if (!newest) return [];
      if (!doc || isLock(newest)) {
        if (isLock(newest)) await this.finishDeletion(workspaceId, id);
        return [];
      }
      // An entry newer than the record: a write cut short between its two steps.
      if (newest.version > doc.version && round < MAX_ROUNDS) {
        if ((await this.rollForward(workspaceId, id)) !== "current") continue;
      }
      const q: Record<string, unknown> = {
        workspace_id: workspaceId,
        record_id: id,
        collection_id: collectionId,
        deleting: { $exists: false },
      };
      if (beforeVersion !== undefined) q.version = { $lt: beforeVersion };
      const entries = await this.c.recordChanges
        .find(q as never, { projection: CHANGE_FIELDS_ONLY })
        .sort({ version: -1 })
        .limit(n)
        .toArray();
      return (entries as RecordChangeDoc[]).map(toRecordChange);
    }
  }

  // ---- writes ----

  async insert(w: RecordWrite): Promise<"ok" | "collection_not_found"> {
    const r = w.record;
    if (!(await this.collectionLive(r.workspace_id, r.collection_id))) return "collection_not_found";
    try {
      await this.c.records.insertOne(recordDoc(r), WRITE_OPTIONS);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      // This very record (a call repeated after a crash) is completed below.
    }
    try {
      await this.c.recordChanges.insertOne(recordChangeDoc(w.change), WRITE_OPTIONS);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    if (!(await this.collectionLive(r.workspace_id, r.collection_id))) {
      // A purge began meanwhile and may have deleted the collection's records before this one.
      await this.c.records.deleteOne({ _id: r.id, workspace_id: r.workspace_id });
      await this.c.recordChanges.deleteMany({ workspace_id: r.workspace_id, record_id: r.id });
      return "collection_not_found";
    }
    return "ok";
  }

  async update(w: RecordWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    const r = w.record;
    const ws = r.workspace_id;
    const v = r.version - 1;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.records.findOne({ _id: r.id, workspace_id: ws, collection_id: r.collection_id }, VERSION_ONLY);
      if (!cur) {
        await this.finishDeletionIfLocked(ws, r.id);
        return "not_found";
      }
      if (cur.version !== v) {
        if (cur.version < v) {
          const healed = await this.rollForward(ws, r.id);
          if (healed === "rolled") continue;
          if (healed !== "current") return "not_found";
        }
        return "version_conflict";
      }
      const holder = await this.insertChange(recordChangeDoc(w.change, r));
      if (holder === "retry") continue;
      if (holder !== "ours") {
        // Another writer holds version v+1: its state may not be on the record yet.
        const healed = await this.rollForward(ws, r.id);
        return healed === "deleted" || healed === "gone" ? "not_found" : "version_conflict";
      }
      const doc = recordDoc(r);
      const replaced = await this.apply(doc);
      if (!replaced && !(await this.c.records.findOne({ _id: r.id, workspace_id: ws }, VERSION_ONLY))) {
        // Deleted or purged between the check and the entry: the entry must not outlive it.
        await this.c.recordChanges.deleteOne({ _id: w.change.id });
        return "not_found";
      }
      return "ok";
    }
    return "version_conflict";
  }

  /** Staged, then applied (record-import.ts). */
  importRecords(workspaceId: string, collectionId: string, job: RecordImportJob): Promise<RecordImportOutcome> {
    return this.#imports.run(workspaceId, collectionId, job);
  }

  async delete(
    workspaceId: string,
    collectionId: string,
    id: string,
    expectedVersion: number | null,
  ): Promise<RecordRemoval | "version_conflict" | "not_found"> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.records.findOne({ _id: id, workspace_id: workspaceId, collection_id: collectionId }, VERSION_ONLY);
      if (!cur) {
        await this.finishDeletionIfLocked(workspaceId, id);
        return "not_found";
      }
      if (expectedVersion !== null && cur.version !== expectedVersion) {
        if (cur.version < expectedVersion) {
          const healed = await this.rollForward(workspaceId, id);
          if (healed === "rolled") continue;
          if (healed !== "current") return "not_found";
        }
        return "version_conflict";
      }
      const holder = await this.insertChange({
        _id: uuidv7(),
        workspace_id: workspaceId,
        collection_id: collectionId,
        record_id: id,
        version: cur.version + 1,
        deleting: true,
        at: new Date().toISOString(),
      });
      if (holder === "retry") continue;
      if (holder !== "ours") {
        if (isLock(holder)) {
          await this.finishDeletion(workspaceId, id); // another deletion, cut short or racing
          return "not_found";
        }
        const healed = await this.rollForward(workspaceId, id);
        if (healed === "deleted" || healed === "gone") return "not_found";
        if (expectedVersion === null) {
          await backoff(round);
          continue;
        }
        return "version_conflict";
      }
      return this.finishDeletion(workspaceId, id);
    }
    return "version_conflict";
  }

  // ---- the steps ----

  private async collectionLive(workspaceId: string, collectionId: string): Promise<boolean> {
    const n = await this.c.collections.countDocuments({ _id: collectionId, workspace_id: workspaceId, purging: { $exists: false } }, {
      limit: 1,
    });
    return n > 0;
  }

  /**
   * Inserts an entry (or a deletion lock). "ours": inserted, or there already under its own id
   * (a repeated call); "retry": refused by an entry gone since; else the entry holding the version.
   */
  private async insertChange(d: RecordChangesDoc): Promise<"ours" | "retry" | RecordChangesDoc> {
    try {
      await this.c.recordChanges.insertOne(d, WRITE_OPTIONS);
      return "ours";
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    const holder = await this.c.recordChanges.findOne({ workspace_id: d.workspace_id, record_id: d.record_id, version: d.version }, {
      projection: CHANGE_FIELDS_ONLY,
    });
    if (!holder) return (await this.c.recordChanges.countDocuments({ _id: d._id }, { limit: 1 })) > 0 ? "ours" : "retry";
    return holder._id === d._id ? "ours" : holder;
  }

  /**
   * Puts a state on the record (only forward), then drops `next` from the entry before it.
   * False when nothing matched: the record is at this version or beyond already, or gone.
   */
  private async apply(doc: RecordDoc): Promise<boolean> {
    const r = await this.c.records.replaceOne(
      { _id: doc._id, workspace_id: doc.workspace_id, version: { $lt: doc.version } },
      doc,
      WRITE_OPTIONS,
    );
    await this.c.recordChanges.updateOne(
      { workspace_id: doc.workspace_id, record_id: doc._id, version: doc.version - 1, next: { $exists: true } },
      { $unset: { next: "" } },
    );
    return r.matchedCount > 0;
  }

  /** Rolls the record forward to its newest entry's state when that is newer; a newest deletion lock finishes the deletion. */
  private async rollForward(workspaceId: string, id: string): Promise<Healed> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const [doc, newest] = await Promise.all([
        this.c.records.findOne({ _id: id, workspace_id: workspaceId }, VERSION_ONLY),
        this.c.recordChanges.find({ workspace_id: workspaceId, record_id: id }).sort({ version: -1 }).limit(1).next(),
      ]);
      if (newest && isLock(newest)) {
        await this.finishDeletion(workspaceId, id);
        return "deleted";
      }
      if (!doc) return "gone";
      const next = (newest as RecordChangeDoc | null)?.next;
      if (!newest || newest.version <= doc.version || !next) return round === 0 ? "current" : "rolled";
      await this.apply(next);
    }
    return "rolled";
  }

  private async removal(workspaceId: string, id: string): Promise<RecordRemoval> {
    const entries = { workspace_id: workspaceId, record_id: id };
    const [history, outcomes] = await Promise.all([
      this.c.recordChanges.countDocuments({ ...entries, type: { $exists: true } }),
      this.c.recordChanges.countDocuments({ ...entries, outcome: { $ne: null } }),
    ]);
    return { record_id: id, history_entries: history, outcomes };
  }

  /** The steps of a deletion after its lock: count, the record, its entries (the lock with them). */
  private async finishDeletion(workspaceId: string, id: string): Promise<RecordRemoval> {
    const removal = await this.removal(workspaceId, id);
    await this.c.records.deleteOne({ _id: id, workspace_id: workspaceId });
    await this.c.recordChanges.deleteMany({ workspace_id: workspaceId, record_id: id });
    return removal;
  }

  /** Finishes a deletion cut short after the record went (its entries and lock left). */
  private async finishDeletionIfLocked(workspaceId: string, id: string): Promise<void> {
    const lock = await this.c.recordChanges.findOne({ workspace_id: workspaceId, record_id: id, deleting: true }, {
      projection: { _id: 1 },
    });
    if (lock) await this.finishDeletion(workspaceId, id);
  }
}
