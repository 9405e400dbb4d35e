/**
 * Entities without multi-document transactions (docs/decisions/005-mongo-without-transactions.md;
 * documents in documents.ts).
 *
 * - **Upsert: the key is the lock.** `entities` is unique (workspace_id, kind, dedup_slot), the
 *   slot being `k:<dedup_norm>` (or `id:<id>` for an entity without a key, which therefore never
 *   collides). An upsert inserts `fresh`; of concurrent upserts of one pair exactly one inserts.
 *   The others read the winner, merge into it and write the merge as a versioned write.
 * - **Merges: the version is the lock.** `entity_versions` is unique (workspace_id, entity_id,
 *   version). A merge into version v inserts version v+1 holding the next state, replaces the
 *   entity (only forward), then unsets the previous version's snapshot. A merge that loses the
 *   version rolls the winner's state forward, re-reads and merges again (bounded rounds).
 * - **Healing**: a merge cut short after its version leaves a version newer than the entity; the
 *   next upsert of the pair collides with it and rolls the entity forward first. Reads do not heal.
 */
import type { CollectionCollections } from "./collections.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Entity } from "../../../core/collections/model.ts";
import type { EntityStore, IdPage, Slice } from "../../../core/collections/ports.ts";
import { backoff } from "../retry.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { dedupSlot, type EntityDoc, entityDoc, toEntity, WRITE_OPTIONS } from "./documents.ts";

/** Rounds of "re-read and merge again" inside one upsert. */
const MAX_ROUNDS = 10;

export class MongoEntityStore implements EntityStore {
  constructor(private readonly c: CollectionCollections) {}

  async get(workspaceId: string, id: string): Promise<Entity | null> {
    const d = await this.c.entities.findOne({ _id: id, workspace_id: workspaceId });
    return d ? toEntity(d) : null;
  }

  async getMany(workspaceId: string, ids: readonly string[]): Promise<Entity[]> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return [];
    const docs = await this.c.entities.find({ workspace_id: workspaceId, _id: { $in: distinct } }).toArray();
    return docs.map(toEntity);
  }

  async byDedupKeys(workspaceId: string, kind: string, dedupNorms: readonly string[]): Promise<Entity[]> {
    const slots = [...new Set(dedupNorms)].map((norm) => `k:${norm}`);
    if (slots.length === 0) return [];
    // Served by the unique (workspace_id, kind, dedup_slot) index of upserts.
    const docs = await this.c.entities.find({ workspace_id: workspaceId, kind, dedup_slot: { $in: slots } }).toArray();
    return docs.map(toEntity);
  }

  async list(workspaceId: string, kind: string | null, page: IdPage): Promise<Slice<Entity>> {
    const limit = Math.max(0, Math.trunc(page.limit));
    if (limit === 0) return { items: [], has_more: false };
    const q: Record<string, unknown> = { workspace_id: workspaceId };
    if (kind !== null) q.kind = kind;
    if (page.afterId !== undefined) q._id = { $lt: page.afterId };
    const docs = await this.c.entities
      .find(q as never)
      .sort({ _id: -1 })
      .limit(limit + 1)
      .toArray();
    return { items: docs.slice(0, limit).map(toEntity), has_more: docs.length > limit };
  }

  async upsert(
    fresh: Entity,
    merge: (existing: Entity) => Entity | null,
  ): Promise<{ entity: Entity; created: boolean; previous: Entity | null }> {
    const ws = fresh.workspace_id;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        await this.c.entities.insertOne(entityDoc(fresh), WRITE_OPTIONS);
        return { entity: fresh, created: true, previous: null };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      // The pair is taken; or the id, by this very upsert repeated after it went through.
      const doc = fresh.dedup_norm === null
        ? null
        : await this.c.entities.findOne({ workspace_id: ws, kind: fresh.kind, dedup_slot: dedupSlot(fresh) });
      if (!doc) {
        const same = await this.c.entities.findOne({ _id: fresh.id, workspace_id: ws });
        if (same) return { entity: toEntity(same), created: false, previous: toEntity(same) };
        await backoff(round); // deleted since (its workspace going): try again
        continue;
      }
      const existing = toEntity(doc);
      const next = merge(existing);
      if (next === null) return { entity: existing, created: false, previous: existing };
      const won = await this.insertVersion(ws, next);
      if (!won) {
        await this.rollForward(ws, existing.id);
        await backoff(round);
        continue;
      }
      if (!(await this.apply(entityDoc(next)))) {
        throw new Error(`Entity merge of ${existing.id} gave a (kind, dedup_norm) another entity holds`);
      }
      return { entity: next, created: false, previous: existing };
    }
    throw new Error(`Entity upsert of (${fresh.kind}, ${fresh.dedup_norm}) conflicted ${MAX_ROUNDS} times in a row`);
  }

  /** The merge's steps for an entity read before: its next version is the lock, as in `upsert`. */
  async update(next: Entity): Promise<"ok" | "version_conflict" | "not_found"> {
    const doc = await this.c.entities.findOne({ _id: next.id, workspace_id: next.workspace_id });
    if (!doc) return "not_found";
    const cur = toEntity(doc);
    if (cur.version !== next.version - 1) return "version_conflict";
    const state: Entity = { ...cur, name: next.name, attributes: next.attributes, version: next.version, updated_at: next.updated_at };
    if (!(await this.insertVersion(next.workspace_id, state))) {
      await this.rollForward(next.workspace_id, next.id);
      return "version_conflict";
    }
    return (await this.apply(entityDoc(state))) ? "ok" : "version_conflict";
  }

  // ---- the steps ----

  /** Inserts version `next.version` with its state: true when this writer holds it. */
  private async insertVersion(workspaceId: string, next: Entity): Promise<boolean> {
    try {
      await this.c.entityVersions.insertOne(
        { _id: uuidv7(), workspace_id: workspaceId, entity_id: next.id, version: next.version, snapshot: entityDoc(next) },
        WRITE_OPTIONS,
      );
      return true;
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      return false;
    }
  }

  /**
   * Puts a state on the entity (only forward), then drops the previous version's snapshot. A
   * state whose key another entity holds cannot apply: its version is taken back (false).
   */
  private async apply(doc: EntityDoc): Promise<boolean> {
    try {
      await this.c.entities.replaceOne({ _id: doc._id, workspace_id: doc.workspace_id, version: { $lt: doc.version } }, doc, WRITE_OPTIONS);
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      await this.c.entityVersions.deleteOne({ workspace_id: doc.workspace_id, entity_id: doc._id, version: doc.version });
      return false;
    }
    await this.c.entityVersions.updateOne(
      { workspace_id: doc.workspace_id, entity_id: doc._id, version: doc.version - 1, snapshot: { $exists: true } },
      { $unset: { snapshot: "" } },
    );
    return true;
  }

  /** Rolls the entity forward to its newest version when that one is newer. */
  private async rollForward(workspaceId: string, id: string): Promise<void> {
    const [doc, newest] = await Promise.all([
      this.c.entities.findOne({ _id: id, workspace_id: workspaceId }, { projection: { version: 1 } }),
      this.c.entityVersions.find({ workspace_id: workspaceId, entity_id: id }).sort({ version: -1 }).limit(1).next(),
    ]);
    if (doc && newest?.snapshot && newest.version > doc.version) await this.apply(newest.snapshot);
  }
}
