import type { Collection } from "mongodb";
import type { ContactUnlock, RadarMonitor, RadarRun, RadarSearch, ResultOutcome, RunResult, TraceStep } from "../../../core/radar/model.ts";
import type {
  RadarStore,
  ResultPage,
  UnlockBegun,
  UnlockClaim,
  UnlockContext,
  UnlockFinished,
  UnlockHold,
  UnlockRecordWrite,
  UnlockResolution,
} from "../../../core/radar/ports.ts";
import type { CollectionStores } from "../../../core/collections/ports.ts";
import { unlockContextOfStores } from "../../../core/radar/unlock-context.ts";
import { recordWriteReady } from "../../../core/radar/unlock-records.ts";
import type { MongoCreditLedgerStore } from "../credits/credit-ledger-store.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { RadarCollections } from "./collections.ts";
import { type MonitorDoc, type RunDoc, strip, unlockKey } from "./documents.ts";

type Versioned = (RadarRun | RadarMonitor) & { id: string; workspace_id: string; version: number };

/** Radar's MongoDB store; each method keeps its invariant without transactions (documents.ts). */
export class MongoRadarStore implements RadarStore {
  /**
   * `ledger`: the credit ledger of the same database (an unlock holds and captures through it);
   * `collections`: the collection stores an unlock's context reads (one after another: no snapshot).
   */
  constructor(
    private readonly c: RadarCollections,
    private readonly ledger: MongoCreditLedgerStore,
    private readonly collections: CollectionStores,
  ) {}

  /**
   * Compare-and-set of a run or monitor at `next.version - 1`: the version insert is the lock.
   * A writer that finds the version taken first rolls the document forward to it (a writer cut
   * short between its two steps), then answers "version_conflict" so its caller re-reads.
   * Version keys are never freed: a writer that read version v long ago and inserts `<id>:v+1`
   * only now must collide, or it would answer "ok" for a write that never lands. Only the
   * snapshot is dropped once the document has moved past it.
   */
  private async replace<D extends RunDoc | MonitorDoc>(
    docs: Collection<D>,
    next: Versioned,
  ): Promise<"ok" | "version_conflict" | "not_found"> {
    const filter = { _id: next.id, workspace_id: next.workspace_id } as never;
    const cur = await docs.findOne(filter) as Versioned | null;
    if (!cur) return "not_found";
    if (cur.version !== next.version - 1) return "version_conflict";
    const key = `${next.id}:${next.version}`;
    try {
      await this.c.radarVersions.insertOne({
        _id: key,
        workspace_id: next.workspace_id,
        of: next.id,
        version: next.version,
        snapshot: next,
      });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      const won = await this.c.radarVersions.findOne({ _id: key });
      if (won?.snapshot) {
        await docs.replaceOne(
          { _id: next.id, workspace_id: next.workspace_id, version: { $lt: won.version } } as never,
          { _id: next.id, ...won.snapshot } as never,
        );
      }
      return "version_conflict";
    }
    await docs.replaceOne(
      { _id: next.id, workspace_id: next.workspace_id, version: { $lt: next.version } } as never,
      { _id: next.id, ...next } as never,
    );
    // The document is past the version before: its snapshot is needed no more (its key stays).
    await this.c.radarVersions.updateOne({ _id: `${next.id}:${next.version - 1}` }, { $unset: { snapshot: "" } });
    return "ok";
  }

  async insertSearch(s: RadarSearch): Promise<void> {
    await this.c.radarSearches.insertOne({ _id: s.id, ...s });
  }
  async getSearch(workspaceId: string, id: string): Promise<RadarSearch | null> {
    const d = await this.c.radarSearches.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }

  async insertRun(r: RadarRun): Promise<void> {
    await this.c.radarRuns.insertOne({ _id: r.id, ...r });
  }
  async getRun(workspaceId: string, id: string): Promise<RadarRun | null> {
    const d = await this.c.radarRuns.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }
  updateRun(next: RadarRun): Promise<"ok" | "version_conflict" | "not_found"> {
    return this.replace(this.c.radarRuns, next);
  }
  async staleRuns(now: string, limit: number): Promise<RadarRun[]> {
    const docs = await this.c.radarRuns
      .find({ state: { $in: ["queued", "running"] }, $or: [{ lease_until: null }, { lease_until: { $lt: now } }] })
      .sort({ updated_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(strip);
  }

  async appendStep(workspaceId: string, runId: string, step: Omit<TraceStep, "seq">): Promise<TraceStep> {
    // The next number is the last one's + 1; a concurrent append taking it makes this one retry.
    for (;;) {
      const [last] = await this.c.radarSteps.find({ workspace_id: workspaceId, run_id: runId }).sort({ seq: -1 }).limit(1).toArray();
      const seq = (last?.seq ?? 0) + 1;
      try {
        await this.c.radarSteps.insertOne({ _id: `${runId}:${seq}`, workspace_id: workspaceId, run_id: runId, seq, ...step });
        return { seq, ...step };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
    }
  }
  async steps(workspaceId: string, runId: string, afterSeq: number, limit: number): Promise<TraceStep[]> {
    const docs = await this.c.radarSteps
      .find({ workspace_id: workspaceId, run_id: runId, seq: { $gt: afterSeq } })
      .sort({ seq: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ seq: d.seq, type: d.type, at: d.at, data: d.data }));
  }

  async claimResult(result: RunResult): Promise<{ claimed: true } | { claimed: false; existing: RunResult }> {
    const _id = `${result.run_id}:${result.provider_id}`;
    try {
      await this.c.radarResults.insertOne({ _id, ...result });
      return { claimed: true };
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      const existing = await this.c.radarResults.findOne({ _id, workspace_id: result.workspace_id });
      if (!existing) throw e;
      return { claimed: false, existing: strip(existing) };
    }
  }
  async results(workspaceId: string, runId: string, afterPosition: number, limit: number): Promise<ResultPage> {
    const docs = await this.c.radarResults
      .find({ workspace_id: workspaceId, run_id: runId, position: { $gt: afterPosition } })
      .sort({ position: 1 })
      .limit(limit + 1)
      .toArray();
    const items = docs.slice(0, limit).map(strip);
    return { items, next: docs.length > limit ? items.at(-1)!.position : null };
  }
  async countResults(workspaceId: string, runId: string): Promise<Record<ResultOutcome, number>> {
    const count = (outcome: ResultOutcome) => this.c.radarResults.countDocuments({ workspace_id: workspaceId, run_id: runId, outcome });
    const [created, updated, unchanged] = await Promise.all([count("created"), count("updated"), count("unchanged")]);
    return { created, updated, unchanged };
  }

  async insertMonitor(m: RadarMonitor): Promise<void> {
    await this.c.radarMonitors.insertOne({ _id: m.id, ...m });
  }
  async getMonitor(workspaceId: string, id: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }
  async monitorById(id: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ _id: id });
    return d ? strip(d) : null;
  }
  async monitorOfSearch(workspaceId: string, searchId: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ workspace_id: workspaceId, search_id: searchId });
    return d ? strip(d) : null;
  }
  updateMonitor(next: RadarMonitor): Promise<"ok" | "version_conflict" | "not_found"> {
    return this.replace(this.c.radarMonitors, next);
  }
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
   * No transaction (ADR 005): the claims first, then the hold; refused, the claims are removed by
   * their token. A crash in between leaves pending claims without a hold: taken over once stale,
   * and the repair of their token finds no hold to resolve. (The other order would leave a hold
   * nothing points to.)
   */
  async beginUnlocks(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun> {
    const first = us[0];
    if (!first) return { ok: true, hold: null, claims: [] };
    const claims = await Promise.all(us.map((u) => this.claimUnlock(u, staleBefore)));
    if (!hold) return { ok: true, hold: null, claims };
    const held = await this.ledger.append({
      workspace_id: first.workspace_id,
      id: first.token,
      at: first.claimed_at,
      op: { type: "hold", amount: hold.amount },
      reason: hold.reason,
    });
    if (held.ok) return { ok: true, hold: held.entry, claims };
    const mine = us.filter((_, i) => claims[i]!.claimed);
    await Promise.all(mine.map((u) => this.c.radarUnlocks.deleteOne({ _id: unlockKey(u), token: u.token, state: "pending" })));
    if (held.reason === "insufficient") return held;
    throw new Error(`Cannot hold credits for an unlock: the ledger refused (${held.reason})`);
  }

  /**
   * No transaction: the claims settled first, then the records showing what settled (each the
   * record store's compare-and-set, its history entry first), then one ledger entry captures the
   * credits of every claim the token settled (these, and any a finish cut short by a crash
   * settled) and releases the rest; its unique `resolves` key makes that happen once, so a repeat
   * is the repair. A crash after the settles and before the records leaves the value on the unlock
   * (captured by the repair) and not yet on the records, until one of them is unlocked again: free,
   * and then written (docs/decisions/056-contact-values-on-every-record.md).
   */
  async finishUnlocks(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    r: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished> {
    const prior = await this.ledger.resolutionOf(workspaceId, token);
    if (prior) return { settled: [], resolution: prior, ...(records ? { written: [] } : {}) };
    const settles = await Promise.all(us.map(async (u) => {
      const done = await this.c.radarUnlocks.updateOne(
        { _id: unlockKey({ workspace_id: workspaceId, entity_id: u.entity_id, kind: u.kind }), token, state: "pending" },
        { $set: { state: u.state, value: u.value, credits: u.credits, settled_at: u.settled_at } },
      );
      return done.modifiedCount === 1 ? [u] : [];
    }));
    const settled = settles.flat().map((u) => `${u.entity_id}:${u.kind}`);
    const unlocked = new Set(settles.flat().filter((u) => u.state === "unlocked").map((u) => `${u.entity_id}:${u.kind}`));
    const writes = (records ?? []).filter((w) => w.write.record.workspace_id === workspaceId && recordWriteReady(w, unlocked));
    const outcomes = await Promise.all(writes.map((w) => this.collections.records.update(w.write)));
    const written = records ? { written: writes.flatMap((w, i) => (outcomes[i] === "ok" ? [w.write.record.id] : [])) } : {};
    const mine = await this.c.radarUnlocks.find({ workspace_id: workspaceId, token, state: { $ne: "pending" } }).toArray();
    const capture = mine.reduce((n, u) => n + u.credits, 0);
    const out = await this.ledger.append({
      workspace_id: workspaceId,
      id: r.id,
      at: r.at,
      op: { type: "resolve", hold_id: token, capture },
      reason: r.reason,
    });
    if (out.ok) return { settled, resolution: out.entry, ...written };
    if (out.reason === "hold_not_found") return { settled, resolution: null, ...written };
    if (out.reason === "hold_resolved") return { settled, resolution: out.resolution, ...written };
    throw new Error(`Cannot resolve the unlock's hold ${token}: the ledger refused (${out.reason})`);
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

  async dueMonitors(now: string, limit: number): Promise<RadarMonitor[]> {
    const docs = await this.c.radarMonitors
      .find({ state: "active", next_run_at: { $ne: null, $lte: now } })
      .sort({ next_run_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(strip);
  }
}
