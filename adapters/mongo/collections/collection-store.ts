/**
 * Collections without multi-document transactions (docs/decisions/005-mongo-without-transactions.md;
 * documents in documents.ts).
 *
 * - **Insert**: the collection document; its `_id` decides (a repeated call is a no-op).
 * - **Update: the version is the lock.** `collection_versions` is unique (workspace_id,
 *   collection_id, version). A write of version v+1 checks that the document is at v, inserts
 *   version v+1 holding the whole next state (`snapshot`), then replaces the document (only
 *   forward: `version < v+1`), then unsets the previous version's snapshot. Of concurrent writers
 *   of v+1 exactly one inserts; the others answer "version_conflict".
 * - **Healing**: a write cut short after its version insert leaves a version newer than the
 *   document. The next update or purge meeting it rolls the document forward from the snapshot
 *   (and a writer that collided answers "version_conflict", so its caller re-reads).
 * - **Purge**: takes version v+1 like a write (`purge: true`, no state), so it cannot interleave
 *   with one; then marks the document `purging` (from then on `get` and `list` do not see it),
 *   then deletes the records, their history, the versions, and last the document. Cut short
 *   anywhere, `purge` called again (with any version) finishes it, and so does the next update
 *   meeting the purge's version. A record insert racing the purge checks the marker after
 *   writing and takes its record back (record-store.ts), so no record outlives its collection.
 *
 * Residual window, FerretDB only: its conditional replace is a read then a replace, so a healer's
 * replace delayed across a whole later write could move the document back one version; the newest
 * version keeps its snapshot, so the next write of the collection rolls it forward again.
 */
import type { CollectionCollections } from "./collections.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Collection } from "../../../core/collections/model.ts";
import type { CollectionFilter, CollectionStore, IdPage, PurgePlan, Slice } from "../../../core/collections/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { type CollectionDoc, collectionDoc, type CollectionVersionDoc, toCollection, WRITE_OPTIONS } from "./documents.ts";
import { escapeRegex } from "./record-query.ts";

/** Rounds of "heal and try again" inside one call. */
const MAX_ROUNDS = 5;

const VERSION_ONLY = { projection: { version: 1, purging: 1 } } as const;

type Healed = "rolled" | "current" | "purging" | "gone";

export class MongoCollectionStore implements CollectionStore {
  constructor(private readonly c: CollectionCollections) {}

  async get(workspaceId: string, id: string): Promise<Collection | null> {
    const d = await this.c.collections.findOne({ _id: id, workspace_id: workspaceId, purging: { $exists: false } });
    return d ? toCollection(d) : null;
  }

  async list(workspaceId: string, filter: CollectionFilter, page: IdPage): Promise<Slice<Collection>> {
    const limit = Math.max(0, Math.trunc(page.limit));
    if (limit === 0 || filter.statuses.length === 0) return { items: [], has_more: false };
    const q: Record<string, unknown> = { workspace_id: workspaceId, status: { $in: filter.statuses }, purging: { $exists: false } };
    if (page.afterId !== undefined) q._id = { $lt: page.afterId };
    if (filter.ownerId !== undefined) q.owner_identity_id = filter.ownerId;
    if (filter.updatedAfter !== undefined) q.updated_at = { $gt: filter.updatedAfter };
    if (filter.nameWords?.length) q.$and = filter.nameWords.map((w) => ({ name_lc: { $regex: escapeRegex(w) } }));
    const docs = await this.c.collections
      .find(q as never)
      .sort({ _id: -1 })
      .limit(limit + 1)
      .toArray();
    return { items: docs.slice(0, limit).map(toCollection), has_more: docs.length > limit };
  }

  async insert(c: Collection): Promise<void> {
    try {
      await this.c.collections.insertOne(collectionDoc(c), WRITE_OPTIONS);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      // The same id: this very insert, repeated after it went through.
    }
  }

  async update(next: Collection): Promise<"ok" | "version_conflict" | "not_found"> {
    const ws = next.workspace_id;
    const id = next.id;
    const v = next.version - 1;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.collections.findOne({ _id: id, workspace_id: ws }, VERSION_ONLY);
      if (!cur || cur.purging) return "not_found";
      if (cur.version !== v) {
        if (cur.version < v) {
          const healed = await this.rollForward(ws, id);
          if (healed === "rolled") continue;
          if (healed !== "current") return "not_found";
        }
        return "version_conflict";
      }
      const doc = collectionDoc(next);
      const holder = await this.insertVersion({ _id: uuidv7(), workspace_id: ws, collection_id: id, version: next.version, snapshot: doc });
      if (holder === "retry") continue;
      if (holder !== "ours") {
        const healed = await this.rollForward(ws, id);
        return healed === "purging" || healed === "gone" ? "not_found" : "version_conflict";
      }
      await this.apply(doc);
      return "ok";
    }
    return "version_conflict";
  }

  async purgePlan(workspaceId: string, id: string): Promise<PurgePlan | null> {
    const cur = await this.c.collections.findOne({ _id: id, workspace_id: workspaceId, purging: { $exists: false } }, VERSION_ONLY);
    return cur ? this.plan(workspaceId, id) : null;
  }

  async purge(workspaceId: string, id: string, expectedVersion: number): Promise<PurgePlan | "version_conflict" | "not_found"> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.collections.findOne({ _id: id, workspace_id: workspaceId }, VERSION_ONLY);
      if (!cur) return "not_found";
      if (cur.purging) return this.finishPurge(workspaceId, id); // a purge cut short (or racing): any version
      if (cur.version !== expectedVersion) {
        if (cur.version < expectedVersion) {
          const healed = await this.rollForward(workspaceId, id);
          if (healed === "rolled" || healed === "purging") continue;
          if (healed === "gone") return "not_found";
        }
        return "version_conflict";
      }
      const holder = await this.insertVersion({
        _id: uuidv7(),
        workspace_id: workspaceId,
        collection_id: id,
        version: cur.version + 1,
        purge: true,
      });
      if (holder === "retry") continue;
      if (holder !== "ours" && !holder.purge) {
        await this.rollForward(workspaceId, id);
        return "version_conflict";
      }
      return this.finishPurge(workspaceId, id);
    }
    return "version_conflict";
  }

  // ---- the steps ----

  /**
   * Inserts a version. "ours": inserted; "retry": refused by a version gone since (a purge
   * finished meanwhile, then `get` answers); else the version holding the number.
   */
  private async insertVersion(d: CollectionVersionDoc): Promise<"ours" | "retry" | CollectionVersionDoc> {
    try {
      await this.c.collectionVersions.insertOne(d, WRITE_OPTIONS);
      return "ours";
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    const holder = await this.c.collectionVersions.findOne({
      workspace_id: d.workspace_id,
      collection_id: d.collection_id,
      version: d.version,
    });
    return holder ?? "retry";
  }

  /** Puts a state on the document (only forward), then drops the previous version's snapshot. */
  private async apply(doc: CollectionDoc): Promise<void> {
    await this.c.collections.replaceOne(
      { _id: doc._id, workspace_id: doc.workspace_id, version: { $lt: doc.version }, purging: { $exists: false } },
      doc,
      WRITE_OPTIONS,
    );
    await this.c.collectionVersions.updateOne(
      { workspace_id: doc.workspace_id, collection_id: doc._id, version: doc.version - 1, snapshot: { $exists: true } },
      { $unset: { snapshot: "" } },
    );
  }

  /** Rolls the document forward to the newest version when that one is newer; finishes a purge. */
  private async rollForward(workspaceId: string, id: string): Promise<Healed> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const [doc, newest] = await Promise.all([
        this.c.collections.findOne({ _id: id, workspace_id: workspaceId }, VERSION_ONLY),
        this.c.collectionVersions.find({ workspace_id: workspaceId, collection_id: id }).sort({ version: -1 }).limit(1).next(),
      ]);
      if (!doc) return "gone";
      if (doc.purging || (newest?.purge && newest.version > doc.version)) {
        await this.finishPurge(workspaceId, id);
        return "purging";
      }
      if (!newest || newest.version <= doc.version || !newest.snapshot) return round === 0 ? "current" : "rolled";
      await this.apply(newest.snapshot);
    }
    return "rolled";
  }

  private async plan(workspaceId: string, id: string): Promise<PurgePlan> {
    const records = { workspace_id: workspaceId, collection_id: id };
    const [n, history, outcomes, links] = await Promise.all([
      this.c.records.countDocuments(records),
      this.c.recordChanges.countDocuments({ ...records, type: { $exists: true } }),
      this.c.recordChanges.countDocuments({ ...records, outcome: { $ne: null } }),
      this.c.records.countDocuments({ ...records, entity_id: { $ne: null } }),
    ]);
    return { collection_id: id, records: n, history_entries: history, outcomes, entity_links: links };
  }

  /** Marks the collection (readers stop seeing it), counts, deletes its records, history, versions, itself. */
  private async finishPurge(workspaceId: string, id: string): Promise<PurgePlan> {
    const byCollection = { workspace_id: workspaceId, collection_id: id };
    await this.c.collections.updateOne({ _id: id, workspace_id: workspaceId, purging: { $exists: false } }, {
      $set: { purging: new Date().toISOString() },
    });
    const plan = await this.plan(workspaceId, id);
    await this.c.records.deleteMany(byCollection);
    await this.c.recordChanges.deleteMany(byCollection);
    await this.c.collectionVersions.deleteMany(byCollection);
    await this.c.collections.deleteOne({ _id: id, workspace_id: workspaceId });
    return plan;
  }
}
