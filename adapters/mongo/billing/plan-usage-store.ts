import type { Usage } from "../../../core/billing/plans.ts";
import type { ClaimOutcome, PlanUsageStore } from "../../../core/billing/ports.ts";
import { CAPACITY_KINDS, type CapacityKind } from "../../../core/kernel/capacity.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { CollectionCollections } from "../collections/mod.ts";
import type { TopicCollections } from "../topics/mod.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { BillingCollections } from "./collections.ts";

type Collections = BillingCollections & WorkspaceCollections & TopicCollections & CollectionCollections;

/** Slot numbers tried after the count before the slots are counted again. */
const PROBE = 8;
/** Rounds of probing before the free numbers are looked up. */
const ROUNDS = 4;
/** Slots inserted at a time when seeding. */
const SEED_BATCH = 1_000;

/**
 * Usage as numbered slot documents (ADR 005's discipline: an insert under a unique key is the one
 * atomic write FerretDB v1 has). A unit of `kind` is a slot `<workspace>:<kind>:<n>`; a claim
 * under a limit takes a free number `n ≤ limit`, so at most `limit` such slots can exist, and of
 * concurrent claims for the last free number exactly one inserts. Slots above the limit (left by a
 * higher plan before a downgrade) are folded down: a claim that finds one deletes it (one deleter
 * wins) and keeps its new slot in its place, then claims again. A release deletes the highest slots.
 * Usage is the count of slots (docs/decisions/031-plan-limits.md).
 */
export class MongoPlanUsageStore implements PlanUsageStore {
  /** Counters this process saw seeded. */
  private seeded = new Set<string>();

  constructor(private c: Collections) {}

  private slotId = (ws: string, kind: CapacityKind, n: number) => `${ws}:${kind}:${n}`;

  private async itemCount(ws: string, kind: CapacityKind): Promise<number> {
    switch (kind) {
      case "members":
        return this.c.members.countDocuments({ workspace_id: ws });
      case "topics":
        return this.c.topics.countDocuments({ workspace_id: ws });
      case "collections":
        return this.c.collections.countDocuments({ workspace_id: ws });
      case "records":
        return this.c.records.countDocuments({ workspace_id: ws });
    }
  }

  /** The first touch of a counter numbers the stored items 1 … count (seeding again inserts the same numbers). */
  private async seed(ws: string, kind: CapacityKind): Promise<void> {
    const key = `${ws}:${kind}`;
    if (this.seeded.has(key)) return;
    if (!(await this.c.planSeeds.findOne({ _id: key }))) {
      const count = await this.itemCount(ws, kind);
      const at = new Date().toISOString();
      for (let from = 1; from <= count; from += SEED_BATCH) {
        const docs = [];
        for (let n = from; n < from + SEED_BATCH && n <= count; n++) {
          docs.push({ _id: this.slotId(ws, kind, n), workspace_id: ws, kind, n, at });
        }
        try {
          await this.c.planSlots.insertMany(docs, { ordered: false });
        } catch (e) {
          if (!isDuplicateKey(e)) throw e;
        }
      }
      try {
        await this.c.planSeeds.insertOne({ _id: key, workspace_id: ws, kind, at });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
    }
    this.seeded.add(key);
  }

  private count(ws: string, kind: CapacityKind): Promise<number> {
    return this.c.planSlots.countDocuments({ workspace_id: ws, kind });
  }

  private async insertSlot(ws: string, kind: CapacityKind, n: number): Promise<boolean> {
    try {
      await this.c.planSlots.insertOne({ _id: this.slotId(ws, kind, n), workspace_id: ws, kind, n, at: new Date().toISOString() });
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }

  /** Takes a free number ≤ limit; null when none is free (the count then). */
  private async takeNumber(ws: string, kind: CapacityKind, limit: number | null): Promise<{ ok: true } | { ok: false; used: number }> {
    for (let round = 0;; round++) {
      const used = await this.count(ws, kind);
      if (limit !== null && used >= limit) return { ok: false, used };
      if (round < ROUNDS || limit === null) {
        const last = limit === null ? used + PROBE : Math.min(limit, used + PROBE);
        for (let n = used + 1; n <= last; n++) if (await this.insertSlot(ws, kind, n)) return { ok: true };
        continue;
      }
      // Holes below the count (slots freed out of order): look the free numbers up.
      const taken = new Set(
        (await this.c.planSlots.find({ workspace_id: ws, kind, n: { $lte: limit } }, { projection: { n: 1 } }).toArray()).map((d) => d.n),
      );
      let free = false;
      for (let n = 1; n <= limit; n++) {
        if (taken.has(n)) continue;
        free = true;
        if (await this.insertSlot(ws, kind, n)) return { ok: true };
      }
      if (!free) return { ok: false, used: await this.count(ws, kind) };
    }
  }

  /** One unit: a number ≤ limit, with no slot left above the limit. */
  private async claimOne(ws: string, kind: CapacityKind, limit: number | null): Promise<ClaimOutcome> {
    for (;;) {
      const taken = await this.takeNumber(ws, kind, limit);
      if (!taken.ok || limit === null) return taken;
      // A slot above the limit (from a higher plan) is folded into the one just taken.
      let folded = false;
      for (;;) {
        const high = await this.c.planSlots.findOne({ workspace_id: ws, kind, n: { $gt: limit } });
        if (!high) break;
        if ((await this.c.planSlots.deleteOne({ _id: high._id })).deletedCount === 1) {
          folded = true;
          break;
        }
      }
      if (!folded) return { ok: true };
    }
  }

  async usage(workspaceId: string): Promise<Usage> {
    const counts = await Promise.all(CAPACITY_KINDS.map(async (k) => {
      await this.seed(workspaceId, k);
      return [k, await this.count(workspaceId, k)] as const;
    }));
    return Object.fromEntries(counts) as Usage;
  }

  async usageOf(workspaceIds: string[]): Promise<Map<string, Usage>> {
    const ids = [...new Set(workspaceIds)];
    const out = new Map<string, Usage>();
    if (ids.length === 0) return out;
    // Seed markers of the page in one read; only counters never touched are seeded one by one.
    const keys = ids.flatMap((id) => CAPACITY_KINDS.map((k) => `${id}:${k}`)).filter((k) => !this.seeded.has(k));
    if (keys.length > 0) {
      const marked = await this.c.planSeeds.find({ _id: { $in: keys } }).project({ _id: 1 }).toArray();
      for (const m of marked) this.seeded.add(m._id as string);
      for (const key of keys) {
        if (this.seeded.has(key)) continue;
        const at = key.lastIndexOf(":");
        await this.seed(key.slice(0, at), key.slice(at + 1) as CapacityKind);
      }
    }
    for (const id of ids) out.set(id, { members: 0, topics: 0, collections: 0, records: 0 });
    const groups = await this.c.planSlots
      .aggregate<{ _id: { w: string; k: CapacityKind }; n: number }>([
        { $match: { workspace_id: { $in: ids } } },
        { $group: { _id: { w: "$workspace_id", k: "$kind" }, n: { $sum: 1 } } },
      ])
      .toArray();
    for (const g of groups) {
      const u = out.get(g._id.w);
      if (u && (CAPACITY_KINDS as readonly string[]).includes(g._id.k)) u[g._id.k] = Number(g.n);
    }
    return out;
  }

  async claim(workspaceId: string, kind: CapacityKind, n: number, limit: number | null): Promise<ClaimOutcome> {
    await this.seed(workspaceId, kind);
    for (let i = 0; i < n; i++) {
      const outcome = await this.claimOne(workspaceId, kind, limit);
      if (!outcome.ok) {
        if (i > 0) await this.release(workspaceId, kind, i);
        return { ok: false, used: await this.count(workspaceId, kind) };
      }
    }
    return { ok: true };
  }

  async release(workspaceId: string, kind: CapacityKind, n: number): Promise<void> {
    await this.seed(workspaceId, kind);
    let left = n;
    while (left > 0) {
      const top = await this.c.planSlots.find({ workspace_id: workspaceId, kind }).sort({ n: -1 }).limit(left).toArray();
      if (top.length === 0) return;
      for (const slot of top) if ((await this.c.planSlots.deleteOne({ _id: slot._id })).deletedCount === 1) left--;
    }
  }

  /** Forgets what this process saw seeded of a deleted workspace. */
  forget(workspaceId: string): void {
    for (const k of CAPACITY_KINDS) this.seeded.delete(`${workspaceId}:${k}`);
  }
}
