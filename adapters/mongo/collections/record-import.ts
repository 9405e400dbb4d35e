/**
 * A records import without multi-document transactions (docs/decisions/005-mongo-without-transactions.md,
 * docs/decisions/063-records-csv-and-ndjson.md): staged, then applied.
 *
 * 1. **Staging.** A journal document (`record_imports`, state `writing`) names the import; every
 *    write of every batch is stored in `record_import_writes` (a create's record and entry; an
 *    update's next state, entry and the state it replaces, checked against the version the import
 *    read). Readers never look there: nothing is visible yet. A refusal, or batches that throw,
 *    drop the staged writes and the journal.
 * 2. **Commit point.** The collection is checked (still there, at the version the rows were
 *    checked against) and the journal set to `applying`: from here the import is completed, never
 *    dropped.
 * 3. **Applying.** Updates first, each through the record store's own lock (its history entry at
 *    version v+1, then the record replaced forward); a record that another writer moved since it
 *    was staged stops the import: the updates applied so far are taken back (entry deleted, the
 *    record put back while still at the import's version) and nothing else is written. Then the
 *    creates, a page at a time (`insertMany`, unordered: a repeated page skips what is there).
 *    A purge that began meanwhile takes the creates back (as a single insert does). Last, the
 *    staged writes and the journal go.
 *
 * While an import applies, a reader may see part of it: MongoDB gives no snapshot across
 * documents. A process killed while staging leaves invisible writes; killed while applying, a
 * partly applied import. The next import into the same collection finds the journal (its lease
 * run out) and drops the first, completes the second.
 */
import type { CollectionRecord } from "../../../core/collections/model.ts";
import type { RecordImportJob, RecordImportOutcome } from "../../../core/collections/ports.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { CollectionCollections } from "./collections.ts";
import { type RecordChangeDoc, recordChangeDoc, type RecordDoc, recordDoc, toRecord, WRITE_OPTIONS } from "./documents.ts";

export interface RecordImportDoc {
  _id: string;
  workspace_id: string;
  collection_id: string;
  state: "writing" | "applying";
  /** Renewed as the import goes; past `IMPORT_LEASE_MS`, the import is taken for dead. */
  alive_at: string;
}

export interface ImportWriteDoc {
  _id: string;
  import_id: string;
  workspace_id: string;
  collection_id: string;
  kind: "create" | "update";
  /** The order of the writes within the import. */
  seq: number;
  record: RecordDoc;
  change: RecordChangeDoc;
  /** An update's record as it was (what taking it back restores). */
  before?: RecordDoc;
}

/** An import not heard from for this long is dead: the next import into its collection finishes (or drops) it. */
export const IMPORT_LEASE_MS = 120_000;
/** Staged writes read (and creates inserted) at a time while applying. */
const PAGE = 1_000;

type Applied = "ok" | "collection_not_found" | { conflict: string; current_version: number | null };

export class MongoRecordImports {
  constructor(private readonly c: CollectionCollections, private readonly now: () => number = Date.now) {}

  async run(workspaceId: string, collectionId: string, job: RecordImportJob): Promise<RecordImportOutcome> {
    await this.heal(workspaceId, collectionId);
    const live = await this.collectionAt(workspaceId, collectionId, job.collectionVersion);
    if (live !== "ok") return live;
    const importId = uuidv7();
    await this.c.recordImports.insertOne({
      _id: importId,
      workspace_id: workspaceId,
      collection_id: collectionId,
      state: "writing",
      alive_at: new Date(this.now()).toISOString(),
    });
    let seq = 0;
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    try {
      for await (const batch of job.batches) {
        const staged: ImportWriteDoc[] = [];
        const stage = (kind: ImportWriteDoc["kind"], record: CollectionRecord, change: RecordChangeDoc, before?: RecordDoc) =>
          staged.push({
            _id: uuidv7(),
            import_id: importId,
            workspace_id: workspaceId,
            collection_id: collectionId,
            kind,
            seq: seq++,
            record: recordDoc(record),
            change,
            ...(before ? { before } : {}),
          });
        if (batch.updates.length) {
          const docs = await this.c.records.find({
            _id: { $in: batch.updates.map((u) => u.id) },
            workspace_id: workspaceId,
            collection_id: collectionId,
          }).toArray();
          const current = new Map(docs.map((d) => [d._id, d]));
          for (const u of batch.updates) {
            const cur = current.get(u.id);
            if (!cur || cur.version !== u.version) {
              await this.drop(workspaceId, importId);
              return { conflict: u.id, current_version: cur?.version ?? null };
            }
            const w = u.next(toRecord(cur));
            if (!w) unchanged++;
            else {
              stage("update", w.record, recordChangeDoc(w.change, w.record), cur);
              updated++;
            }
          }
        }
        for (const w of batch.creates) stage("create", w.record, recordChangeDoc(w.change));
        created += batch.creates.length;
        if (staged.length) await this.c.recordImportWrites.insertMany(staged, { ...WRITE_OPTIONS, ordered: true });
        await this.touch(importId);
      }
    } catch (e) {
      await this.drop(workspaceId, importId).catch(() => {});
      throw e;
    }
    const still = await this.collectionAt(workspaceId, collectionId, job.collectionVersion);
    if (still !== "ok") {
      await this.drop(workspaceId, importId);
      return still;
    }
    await this.c.recordImports.updateOne({ _id: importId }, { $set: { state: "applying", alive_at: new Date(this.now()).toISOString() } });
    const applied = await this.apply(workspaceId, collectionId, importId);
    return applied === "ok" ? { written: { created, updated, unchanged } } : applied;
  }

  /** The collection there (not being purged) at `version`. */
  private async collectionAt(workspaceId: string, collectionId: string, version: number) {
    const c = await this.c.collections.findOne({ _id: collectionId, workspace_id: workspaceId }, {
      projection: { version: 1, purging: 1 },
    });
    if (!c || c.purging !== undefined) return "collection_not_found" as const;
    return c.version === version ? "ok" as const : "collection_changed" as const;
  }

  private async touch(importId: string): Promise<void> {
    await this.c.recordImports.updateOne({ _id: importId }, { $set: { alive_at: new Date(this.now()).toISOString() } });
  }

  /** Forgets an import that applied nothing: its staged writes, then its journal. */
  private async drop(workspaceId: string, importId: string): Promise<void> {
    await this.c.recordImportWrites.deleteMany({ workspace_id: workspaceId, import_id: importId });
    await this.c.recordImports.deleteOne({ _id: importId, workspace_id: workspaceId });
  }

  /** The staged writes of one kind, in order, a page at a time. */
  private async *staged(workspaceId: string, importId: string, kind: ImportWriteDoc["kind"]) {
    let after = -1;
    for (;;) {
      const page = await this.c.recordImportWrites
        .find({ workspace_id: workspaceId, import_id: importId, kind, seq: { $gt: after } })
        .sort({ seq: 1 })
        .limit(PAGE)
        .toArray();
      if (!page.length) return;
      yield page;
      after = page.at(-1)!.seq;
    }
  }

  /** Applies a committed import (again, after a crash: every step is repeatable). */
  private async apply(workspaceId: string, collectionId: string, importId: string): Promise<Applied> {
    for await (const page of this.staged(workspaceId, importId, "update")) {
      for (const w of page) {
        const done = await this.applyUpdate(w);
        if (done !== "ok") {
          await this.takeBack(workspaceId, importId, w.seq);
          await this.drop(workspaceId, importId);
          return { conflict: w.record._id, current_version: done.current_version };
        }
      }
      await this.touch(importId);
    }
    for await (const page of this.staged(workspaceId, importId, "create")) {
      await this.insertAll(this.c.records, page.map((w) => w.record));
      await this.insertAll(this.c.recordChanges, page.map((w) => w.change));
      await this.touch(importId);
    }
    const live = await this.c.collections.countDocuments({ _id: collectionId, workspace_id: workspaceId, purging: { $exists: false } }, {
      limit: 1,
    });
    if (live === 0) {
      // A purge began meanwhile and may have deleted the collection's records before these.
      for await (const page of this.staged(workspaceId, importId, "create")) {
        const ids = page.map((w) => w.record._id);
        await this.c.records.deleteMany({ _id: { $in: ids }, workspace_id: workspaceId });
        await this.c.recordChanges.deleteMany({ workspace_id: workspaceId, record_id: { $in: ids } });
      }
      await this.drop(workspaceId, importId);
      return "collection_not_found";
    }
    await this.drop(workspaceId, importId);
    return "ok";
  }

  /** Inserts documents, skipping those there already (a page repeated after a crash). */
  private async insertAll<T extends { _id: string }>(into: { insertMany(docs: T[], o: object): Promise<unknown> }, docs: T[]) {
    try {
      await into.insertMany(docs, { ...WRITE_OPTIONS, ordered: false });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
  }

  /**
   * One staged update through the record store's lock: its entry at the new version (already
   * ours after a crash), then the record replaced forward. Another writer's entry there, or the
   * record not at the version before: a conflict.
   */
  private async applyUpdate(w: ImportWriteDoc): Promise<"ok" | { current_version: number | null }> {
    const ws = w.workspace_id;
    try {
      await this.c.recordChanges.insertOne(w.change, WRITE_OPTIONS);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      const holder = await this.c.recordChanges.findOne({ workspace_id: ws, record_id: w.record._id, version: w.record.version }, {
        projection: { _id: 1 },
      });
      if (holder?._id !== w.change._id) {
        const cur = await this.c.records.findOne({ _id: w.record._id, workspace_id: ws }, { projection: { version: 1 } });
        return { current_version: cur?.version ?? null };
      }
    }
    const replaced = await this.c.records.replaceOne(
      { _id: w.record._id, workspace_id: ws, version: w.record.version - 1 },
      w.record,
      WRITE_OPTIONS,
    );
    if (replaced.matchedCount === 0) {
      const cur = await this.c.records.findOne({ _id: w.record._id, workspace_id: ws }, { projection: { version: 1 } });
      if (cur?.version === w.record.version) return "ok"; // applied before a crash
      await this.c.recordChanges.deleteOne({ _id: w.change._id, workspace_id: ws });
      return { current_version: cur?.version ?? null };
    }
    // As the store's own writes: the entry before no longer needs the state it carried.
    await this.c.recordChanges.updateOne(
      { workspace_id: ws, record_id: w.record._id, version: w.record.version - 1, next: { $exists: true } },
      { $unset: { next: "" } },
    );
    return "ok";
  }

  /** Takes back the updates applied before `seq`: each record put back while still at the import's version, its entry deleted. */
  private async takeBack(workspaceId: string, importId: string, seq: number): Promise<void> {
    for await (const page of this.staged(workspaceId, importId, "update")) {
      for (const w of page) {
        if (w.seq >= seq) return;
        await this.c.records.replaceOne(
          { _id: w.record._id, workspace_id: workspaceId, version: w.record.version },
          w.before!,
          WRITE_OPTIONS,
        );
        await this.c.recordChanges.deleteOne({ _id: w.change._id, workspace_id: workspaceId });
      }
    }
  }

  /** Imports into this collection whose lease ran out: dropped while writing, completed once applying. */
  private async heal(workspaceId: string, collectionId: string): Promise<void> {
    const dead = await this.c.recordImports.find({
      workspace_id: workspaceId,
      collection_id: collectionId,
      alive_at: { $lt: new Date(this.now() - IMPORT_LEASE_MS).toISOString() },
    }).toArray();
    for (const d of dead) {
      if (d.state === "writing") await this.drop(workspaceId, d._id);
      else await this.apply(workspaceId, collectionId, d._id);
    }
  }
}
