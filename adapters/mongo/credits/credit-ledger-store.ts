import { EMPTY_TOTALS, isRefusal, type LedgerTotals, planChange, totalsOf } from "../../../core/credits/ledger-rules.ts";
import type { LedgerEntry } from "../../../core/credits/model.ts";
import type { CreditLedgerStore, LedgerFilter, LedgerOutcome, LedgerRequest } from "../../../core/credits/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { backoff } from "../retry.ts";
import type { CreditCollections } from "./collections.ts";
import { type CreditEntryDoc, entryDoc, entryKey, fromEntryDoc } from "./documents.ts";
import { KeyedSerial } from "./serial.ts";

/**
 * No transactions and no atomic conditional update (ADR 005): the ledger is a chain. Entry n + 1
 * is built from entry n's running totals, checked (available ≥ 0), and inserted as `_id`
 * `<workspace_id>:<n + 1>`: of writers that built on entry n, exactly one inserts; the others
 * re-read and decide again. An idempotency key and a hold's resolution are unique keys of the same
 * insert, so a write happens once. One insert per write: nothing to heal after a crash.
 *
 * This process remembers each account's latest entry (`heads`), so the hot path is that one
 * insert. The memory is only a guess: an insert refused shows that another writer (another
 * instance) went ahead, and the head is walked forward by `_id` before deciding again; a refusal
 * for want of credits is only answered once the head is confirmed to be the latest entry.
 */
export class MongoCreditLedgerStore implements CreditLedgerStore {
  private readonly serial = new KeyedSerial();
  private readonly heads = new Map<string, LedgerTotals>();

  constructor(private readonly c: CreditCollections) {}

  /** The entry resolving a hold, if any (the unique `resolves` key). */
  async resolutionOf(workspaceId: string, holdId: string): Promise<LedgerEntry | null> {
    const d = await this.c.creditEntries.findOne({ workspace_id: workspaceId, resolves: holdId });
    return d ? fromEntryDoc(d) : null;
  }

  /** Forgets a purged workspace's head. */
  forget(workspaceId: string): void {
    this.heads.delete(workspaceId);
  }

  append(req: LedgerRequest): Promise<LedgerOutcome> {
    return this.serial.run(req.workspace_id, () => this.appendChained(req));
  }

  /** The latest entry's totals: from memory, walked forward past entries other writers added. */
  private async head(workspaceId: string): Promise<LedgerTotals> {
    let t = this.heads.get(workspaceId) ?? await this.readLatest(workspaceId);
    for (;;) {
      const next = await this.c.creditEntries.findOne({ _id: entryKey(workspaceId, t.seq + 1) });
      if (!next) break;
      t = totalsOf(fromEntryDoc(next));
    }
    check(workspaceId, t);
    this.heads.set(workspaceId, t);
    return t;
  }

  private async readLatest(workspaceId: string): Promise<LedgerTotals> {
    const [last] = await this.c.creditEntries.find({ workspace_id: workspaceId }).sort({ seq: -1 }).limit(1).toArray();
    return last ? totalsOf(fromEntryDoc(last)) : { ...EMPTY_TOTALS };
  }

  private async appendChained(req: LedgerRequest): Promise<LedgerOutcome> {
    const ws = req.workspace_id;
    let totals = this.heads.get(ws) ?? await this.head(ws);
    let confirmed = false;
    for (let attempt = 0;; attempt++) {
      if (req.idempotency_key) {
        const prior = await this.c.creditEntries.findOne({ workspace_id: ws, idem: req.idempotency_key });
        if (prior) return { ok: true, entry: fromEntryDoc(prior), replayed: true };
      }
      let hold: LedgerEntry | null = null;
      if (req.op.type === "resolve") {
        const holdId = req.op.hold_id;
        const resolution = await this.c.creditEntries.findOne({ workspace_id: ws, resolves: holdId });
        if (resolution) return { ok: false, reason: "hold_resolved", resolution: fromEntryDoc(resolution) };
        hold = await this.get(ws, holdId);
      }
      const change = planChange(totals, req.op, hold);
      if (isRefusal(change)) {
        if (confirmed || change.reason !== "insufficient") return { ok: false, ...change };
        // Refuse on the latest totals only, not on a head another instance has moved past.
        totals = await this.head(ws);
        confirmed = true;
        continue;
      }
      const entry: LedgerEntry = {
        id: req.id,
        seq: totals.seq + 1,
        type: change.type,
        amount: change.amount,
        held: change.held,
        balance_after: totals.balance + change.amount,
        held_after: totals.held + change.held,
        run_id: req.run_id ?? null,
        record_id: req.record_id ?? null,
        hold_id: change.hold_id,
        idempotency_key: req.idempotency_key ?? null,
        reason: req.reason ?? null,
        at: req.at,
      };
      try {
        await this.c.creditEntries.insertOne(entryDoc(ws, entry));
        this.heads.set(ws, totalsOf(entry));
        return { ok: true, entry, replayed: false };
      } catch (e) {
        // Another writer took this seq (or wrote this key, or resolved this hold): decide again.
        if (!isDuplicateKey(e)) throw e;
        this.heads.delete(ws);
        totals = await this.head(ws);
        confirmed = true;
        if (attempt > 0) await backoff(attempt);
      }
    }
  }

  totals(workspaceId: string): Promise<LedgerTotals> {
    return this.serial.run(workspaceId, async () => ({ ...(await this.head(workspaceId)) }));
  }

  async history(workspaceId: string, filter: LedgerFilter, page: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]> {
    const q: Record<string, unknown> = { workspace_id: workspaceId };
    if (filter.type) q.type = filter.type;
    if (filter.run_id) q.run_id = filter.run_id;
    if (page.beforeSeq !== undefined) q.seq = { $lt: page.beforeSeq };
    const docs = await this.c.creditEntries.find(q as Partial<CreditEntryDoc>).sort({ seq: -1 }).limit(page.limit).toArray();
    return docs.map(fromEntryDoc);
  }

  async get(workspaceId: string, id: string): Promise<LedgerEntry | null> {
    const d = await this.c.creditEntries.findOne({ workspace_id: workspaceId, id });
    return d ? fromEntryDoc(d) : null;
  }
}

/** The chain's invariant, checked where it is built on: a broken entry stops every write. */
function check(workspaceId: string, t: LedgerTotals): void {
  if (t.held < 0 || t.balance - t.held < 0) throw new Error(`Corrupt credit ledger: entry ${t.seq} of ${workspaceId} is negative`);
}
