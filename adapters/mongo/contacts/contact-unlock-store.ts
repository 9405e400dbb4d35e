import type { ContactUnlock } from "../../../core/contacts/model.ts";
import type {
  ContactUnlockStore,
  UnlockBegun,
  UnlockClaim,
  UnlockContext,
  UnlockExpired,
  UnlockFinished,
  UnlockHold,
  UnlockLease,
  UnlockRecordWrite,
  UnlockResolution,
} from "../../../core/contacts/ports.ts";
import type { LedgerEntry } from "../../../core/credits/model.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { CollectionStores } from "../../../core/collections/ports.ts";
import { unlockContextOfStores } from "../../../core/contacts/unlock-context.ts";
import { recordWriteReady } from "../../../core/contacts/unlock-records.ts";
import type { MongoCreditLedgerStore } from "../credits/mod.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { backoff } from "../retry.ts";
import type { ContactCollections } from "./collections.ts";
import { strip } from "../strip-id.ts";
import { tokenKey, type UnlockEndDoc, unlockKey } from "./documents.ts";

/** What applying a token's end did. */
interface Ended {
  /** The end's settles now settled under the token. */
  settled: string[];
  dropped: number;
  resolution: LedgerEntry | null;
  /** The records of the finish's own writes applied (ADR 056); empty when another applied the end. */
  written: string[];
}

/** Contact unlocks: claims, holds and their leases; each method keeps its invariant without transactions (documents.ts). */
export class MongoContactUnlockStore implements ContactUnlockStore {
  /**
   * `ledger`: the credit ledger of the same database (an unlock holds and captures through it);
   * `collections`: the collection stores an unlock's context reads (one after another: no snapshot).
   */
  constructor(
    private readonly c: ContactCollections,
    private readonly ledger: MongoCreditLedgerStore,
    private readonly collections: CollectionStores,
  ) {}

  private async claimUnlock(u: ContactUnlock, staleBefore: string): Promise<UnlockClaim> {
    const _id = unlockKey(u);
    let tookOver: string | null = null;
    for (let attempt = 0;; attempt++) {
      try {
        await this.c.radarUnlocks.insertOne({ _id, ...u });
        return { claimed: true, took_over: tookOver };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const cur = await this.c.radarUnlocks.findOne({ _id });
      if (!cur) continue;
      if (cur.state !== "pending" || cur.claimed_at >= staleBefore || attempt > 0) return { claimed: false, existing: strip(cur) };
      // A claim whose request died: removed by the token it holds (one remover wins), then claimed afresh.
      const removed = await this.c.radarUnlocks.deleteOne({ _id, token: cur.token, state: "pending" });
      if (removed.deletedCount === 1) tookOver = cur.token;
    }
  }

  /**
   * No transaction (ADR 005). With a hold: its lease first (docs/decisions/055-unlock-hold-sweep.md),
   * then the claims, then the hold; refused, the claims are removed by their token and the lease
   * deleted. A crash in between leaves the lease, and the sweep drops the claims and resolves the
   * hold if it was written. Last, a check that the token's end was not decided meanwhile (a begin
   * stalled past its lease, then swept before its claims or hold were written): then the begin
   * ends its token itself as the sweep does and answers `expired`. Without a hold: the claims only.
   */
  async beginUnlocks(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun> {
    const first = us[0];
    if (!first) return { ok: true, hold: null, claims: [] };
    if (!hold) return { ok: true, hold: null, claims: await Promise.all(us.map((u) => this.claimUnlock(u, staleBefore))) };
    const ws = first.workspace_id;
    const _id = tokenKey(ws, first.token);
    await this.c.radarUnlockLeases.insertOne({ _id, workspace_id: ws, token: first.token, lease_until: hold.lease_until });
    const claims = await Promise.all(us.map((u) => this.claimUnlock(u, staleBefore)));
    const held = await this.ledger.append({
      workspace_id: ws,
      id: first.token,
      at: first.claimed_at,
      op: { type: "hold", amount: hold.amount },
      reason: hold.reason,
    });
    if (!held.ok) {
      const mine = us.filter((_, i) => claims[i]!.claimed);
      await Promise.all(mine.map((u) => this.c.radarUnlocks.deleteOne({ _id: unlockKey(u), token: u.token, state: "pending" })));
      await this.c.radarUnlockLeases.deleteOne({ _id });
      if (held.reason === "insufficient") return held;
      throw new Error(`Cannot hold credits for an unlock: the ledger refused (${held.reason})`);
    }
    // The end first, the lease second: an expiry inserts its end before it deletes the lease, and
    // deletes the end only after, so a sweep that began before these writes shows in one of them.
    if ((await this.c.radarUnlockEnds.findOne({ _id })) || !(await this.c.radarUnlockLeases.findOne({ _id }))) {
      const at = new Date().toISOString();
      await this.end(ws, first.token, { kind: "expire", settles: [], resolution: { id: uuidv7(), at, reason: "contact unlock expired" } });
      return { ok: false, reason: "expired" };
    }
    return { ok: true, hold: held.entry, claims };
  }

  /**
   * No transaction: the finish's end is inserted first (the lock: of it and a concurrent expiry
   * of the token exactly one is inserted), then applied: the claims settled, then one ledger
   * entry capturing every claim the token settled and releasing the rest (its unique `resolves`
   * key makes that happen once), then the lease and the end deleted. Whoever meets an end applies
   * it again with the same writes, so one cut short by a crash is completed by the next finish or
   * sweep of the token. The records showing what settled are written by the finish that inserted
   * the end, after the settles and before the capture (each the record store's compare-and-set,
   * its history entry first): a crash between them leaves the value on the unlock (captured by the
   * repair) and not yet on the records, until one of them is unlocked again: free, and then written
   * (docs/decisions/056-contact-values-on-every-record.md).
   */
  async finishUnlocks(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    r: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished> {
    const out = await this.end(workspaceId, token, { kind: "finish", settles: [...us], resolution: r }, records);
    return {
      settled: out.mine ? out.settled : [],
      resolution: out.resolution,
      ...(records ? { written: out.mine ? out.written : [] } : {}),
    };
  }

  async expiredUnlocks(now: string, limit: number): Promise<UnlockLease[]> {
    const docs = await this.c.radarUnlockLeases.find({ lease_until: { $lt: now } }).sort({ lease_until: 1, _id: 1 }).limit(limit).toArray();
    return docs.map((d) => ({ workspace_id: d.workspace_id, token: d.token, lease_until: d.lease_until }));
  }

  async expireUnlock(workspaceId: string, token: string, r: UnlockResolution): Promise<UnlockExpired> {
    if (!(await this.c.radarUnlockLeases.findOne({ _id: tokenKey(workspaceId, token) }))) {
      return { dropped: 0, resolution: await this.ledger.resolutionOf(workspaceId, token) };
    }
    const out = await this.end(workspaceId, token, { kind: "expire", settles: [], resolution: r });
    return { dropped: out.dropped, resolution: out.resolution };
  }

  /** Inserts the token's end, or meets the one inserted before; applies it either way. */
  private async end(
    workspaceId: string,
    token: string,
    want: Pick<UnlockEndDoc, "kind" | "settles" | "resolution">,
    records?: readonly UnlockRecordWrite[],
  ): Promise<Ended & { mine: boolean }> {
    const _id = tokenKey(workspaceId, token);
    for (let attempt = 0;; attempt++) {
      const doc: UnlockEndDoc = { _id, workspace_id: workspaceId, token, ...want };
      try {
        await this.c.radarUnlockEnds.insertOne(doc);
        return { mine: true, ...(await this.applyEnd(doc, records)) };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const other = await this.c.radarUnlockEnds.findOne({ _id });
      if (other) return { mine: false, ...(await this.applyEnd(other)) };
      // Applied and deleted between the insert and the read: the next insert finds it resolved.
      await backoff(attempt);
    }
  }

  /**
   * An end's writes, each idempotent, in this order: nothing once the hold is resolved; else the
   * settles (a finish) or the token's pending claims dropped (an expiry), then the resolution
   * capturing the token's settled claims; then the lease and the end deleted.
   */
  private async applyEnd(d: UnlockEndDoc, records?: readonly UnlockRecordWrite[]): Promise<Ended> {
    const ws = d.workspace_id;
    let resolution = await this.ledger.resolutionOf(ws, d.token);
    let settled: string[] = [];
    let dropped = 0;
    let written: string[] = [];
    if (!resolution) {
      if (d.kind === "expire") {
        dropped = (await this.c.radarUnlocks.deleteMany({ workspace_id: ws, token: d.token, state: "pending" })).deletedCount;
      } else {
        await Promise.all(d.settles.map((u) =>
          this.c.radarUnlocks.updateOne(
            { _id: unlockKey({ workspace_id: ws, entity_id: u.entity_id, kind: u.kind }), token: d.token, state: "pending" },
            { $set: { state: u.state, value: u.value, credits: u.credits, settled_at: u.settled_at } },
          )
        ));
      }
      const kept = await this.c.radarUnlocks.find({ workspace_id: ws, token: d.token, state: { $ne: "pending" } }).toArray();
      const done = new Set(kept.map((u) => `${u.entity_id}:${u.kind}`));
      settled = d.settles.map((u) => `${u.entity_id}:${u.kind}`).filter((k) => done.has(k));
      if (records && d.kind === "finish") {
        const unlocked = new Set(kept.filter((u) => u.state === "unlocked").map((u) => `${u.entity_id}:${u.kind}`));
        const writes = records.filter((w) => w.write.record.workspace_id === ws && recordWriteReady(w, unlocked));
        const outcomes = await Promise.all(writes.map((w) => this.collections.records.update(w.write)));
        written = writes.flatMap((w, i) => (outcomes[i] === "ok" ? [w.write.record.id] : []));
      }
      const out = await this.ledger.append({
        workspace_id: ws,
        id: d.resolution.id,
        at: d.resolution.at,
        op: { type: "resolve", hold_id: d.token, capture: kept.reduce((n, u) => n + u.credits, 0) },
        reason: d.resolution.reason,
      });
      if (out.ok) resolution = out.entry;
      else if (out.reason === "hold_resolved") resolution = out.resolution;
      else if (out.reason !== "hold_not_found") {
        throw new Error(`Cannot resolve the unlock's hold ${d.token}: the ledger refused (${out.reason})`);
      }
    }
    await this.c.radarUnlockLeases.deleteOne({ _id: d._id });
    await this.c.radarUnlockEnds.deleteOne({ _id: d._id, "resolution.id": d.resolution.id });
    return { settled, dropped, resolution, written };
  }

  unlockContext(workspaceId: string, collectionId: string, recordIds: readonly string[]): Promise<UnlockContext | null> {
    return unlockContextOfStores(this.collections, this, workspaceId, collectionId, recordIds);
  }

  async unlocksOf(workspaceId: string, entityIds: readonly string[]): Promise<ContactUnlock[]> {
    const wanted = [...new Set(entityIds)];
    if (wanted.length === 0) return [];
    const docs = await this.c.radarUnlocks.find({ workspace_id: workspaceId, entity_id: { $in: wanted } }).toArray();
    return docs.map(strip);
  }
}
