import { applyChange, EMPTY_TOTALS, isRefusal, type LedgerTotals, planChange, totalsOf } from "../../../core/credits/ledger-rules.ts";
import type { LedgerEntry } from "../../../core/credits/model.ts";
import type { CreditLedgerStore, LedgerFilter, LedgerOutcome, LedgerRequest } from "../../../core/credits/ports.ts";
import type { CreditTables } from "./tables.ts";

/** Each method runs in one turn of the event loop, so appends are serialised by construction. */
export class MemoryCreditLedgerStore implements CreditLedgerStore {
  constructor(private readonly t: CreditTables) {}

  private entries(workspaceId: string): LedgerEntry[] {
    return this.t.ledgers.get(workspaceId) ?? [];
  }

  async append(req: LedgerRequest): Promise<LedgerOutcome> {
    return this.appendNow(req);
  }

  /** `append` within the caller's turn of the event loop: radar's unlock writes its claims in the same turn. */
  appendNow(req: LedgerRequest): LedgerOutcome {
    const entries = this.entries(req.workspace_id);
    if (req.idempotency_key) {
      const prior = entries.find((e) => e.idempotency_key === req.idempotency_key);
      if (prior) return { ok: true, entry: { ...prior }, replayed: true };
    }
    let hold: LedgerEntry | null = null;
    if (req.op.type === "resolve") {
      const holdId = req.op.hold_id;
      const resolution = entries.find((e) => e.hold_id === holdId);
      if (resolution) return { ok: false, reason: "hold_resolved", resolution: { ...resolution } };
      hold = entries.find((e) => e.id === holdId) ?? null;
    }
    const last = entries.at(-1);
    const totals = last ? totalsOf(last) : EMPTY_TOTALS;
    const change = planChange(totals, req.op, hold);
    if (isRefusal(change)) return { ok: false, ...change };
    const next = applyChange(totals, change);
    const entry: LedgerEntry = {
      id: req.id,
      seq: next.seq,
      type: change.type,
      amount: change.amount,
      held: change.held,
      balance_after: next.balance,
      held_after: next.held,
      run_id: req.run_id ?? null,
      record_id: req.record_id ?? null,
      hold_id: change.hold_id,
      idempotency_key: req.idempotency_key ?? null,
      reason: req.reason ?? null,
      at: req.at,
    };
    this.t.ledgers.set(req.workspace_id, [...entries, entry]);
    return { ok: true, entry: { ...entry }, replayed: false };
  }

  /** The resolution of a hold, if any. */
  resolutionOf(workspaceId: string, holdId: string): LedgerEntry | null {
    const e = this.entries(workspaceId).find((x) => x.hold_id === holdId);
    return e ? { ...e } : null;
  }

  async totals(workspaceId: string): Promise<LedgerTotals> {
    const last = this.entries(workspaceId).at(-1);
    return last ? totalsOf(last) : { ...EMPTY_TOTALS };
  }

  async history(workspaceId: string, filter: LedgerFilter, page: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    const entries = this.entries(workspaceId);
    for (let i = entries.length - 1; i >= 0 && out.length < page.limit; i--) {
      const e = entries[i]!;
      if (page.beforeSeq !== undefined && e.seq >= page.beforeSeq) continue;
      if (filter.type && e.type !== filter.type) continue;
      if (filter.run_id && e.run_id !== filter.run_id) continue;
      out.push({ ...e });
    }
    return out;
  }

  async get(workspaceId: string, id: string): Promise<LedgerEntry | null> {
    const e = this.entries(workspaceId).find((x) => x.id === id);
    return e ? { ...e } : null;
  }
}
