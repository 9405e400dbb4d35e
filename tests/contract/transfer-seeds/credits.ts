import type { LedgerOp } from "../../../core/credits/ledger-rules.ts";
import type { IdempotencyRecord, LedgerEntry } from "../../../core/credits/model.ts";
import { CREDIT_TRANSFER_KINDS, ledgerEntryDoc } from "../../../core/credits/transfer.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const seeded = new Map<string, { entries: LedgerEntry[]; idem: IdempotencyRecord; imported: LedgerEntry[] }>();

async function append(
  s: Stores,
  ws: string,
  op: LedgerOp,
  more: { reason?: string; run_id?: string; key?: string } = {},
): Promise<LedgerEntry> {
  const out = await s.creditLedger.append({
    workspace_id: ws,
    id: uuidv7(),
    at: stamp(),
    op,
    reason: more.reason ?? null,
    run_id: more.run_id ?? null,
    idempotency_key: more.key ?? null,
  });
  if (!out.ok) throw new Error(`seed: ledger refused ${JSON.stringify(out)}`);
  return out.entry;
}

/**
 * Credits (ADR 070): a ledger with every entry type (an idempotency key, a hold captured in part,
 * a reason in Unicode, a large grant), a kept `Idempotency-Key` answer, and a ledger imported as
 * history (written as the archive import writes it: through its transfer kind) that must never
 * count in the balance, on the source nor on the copy.
 */
export const creditsSeeder: TransferSeeder = {
  module: "credits",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const entries = [
      await append(s, wsId, { type: "grant", amount: 1_000_000_000 }, { key: "grant-1", reason: "Start — crédit 🎁" }),
      await append(s, wsId, { type: "hold", amount: 300 }, { run_id: uuidv7() }),
    ];
    entries.push(await append(s, wsId, { type: "resolve", hold_id: entries[1]!.id, capture: 200 }));
    entries.push(await append(s, wsId, { type: "debit", amount: 50 }));
    const idem: IdempotencyRecord = {
      workspace_id: wsId,
      scope: "credits.grant",
      key: "clé-1",
      fingerprint: "a".repeat(64),
      state: "pending",
      status: null,
      body: null,
      created_at: stamp(),
      expires_at: "2999-01-01T00:00:00.000Z",
    };
    await s.idempotency.begin(idem, "2000-01-01T00:00:00.000Z");
    await s.idempotency.finish(wsId, idem.scope, idem.key, { status: 201, body: { entry: { seq: 1, "a.b": [1, null, "ü"] } } });
    const at = stamp();
    const imported: LedgerEntry[] = [
      { ...entries[0]!, id: uuidv7(), seq: 1, amount: 40, balance_after: 40, idempotency_key: null, at },
      { ...entries[3]!, id: uuidv7(), seq: 2, amount: -15, balance_after: 25, held_after: 0, at },
    ];
    const kind = s.transfer.kinds.find((k) => k.name === CREDIT_TRANSFER_KINDS.importedEntries.name)!;
    if ((await kind.write(imported.map((e) => ledgerEntryDoc(wsId, e)))) !== 2) throw new Error("seed: imported entries");
    seeded.set(wsId, { entries, idem: { ...idem, state: "done", status: 201 }, imported });
  },

  async verify(source: Stores, target: Stores, ws, expect) {
    const wsId = ws.workspace.id;
    const { entries, idem, imported } = seeded.get(wsId)!;
    // Other modules' seeders may append to the ledger after these entries: the newest entry is the account.
    const history = await source.creditLedger.history(wsId, {}, { limit: 200 });
    const newest = history[0]!;
    // The imported history counts in neither store; the copied ledger is the same ledger.
    const totals = await source.creditLedger.totals(wsId);
    expect(totals).toEqual({ seq: newest.seq, balance: newest.balance_after, held: newest.held_after });
    expect(await target.creditLedger.totals(wsId)).toEqual(totals);
    const ids = new Set(history.map((e) => e.id));
    expect(entries.filter((e) => !ids.has(e.id))).toEqual([]);
    expect(imported.filter((e) => ids.has(e.id))).toEqual([]);
    expect(await target.creditLedger.history(wsId, {}, { limit: 200 })).toEqual(history);
    expect(await target.creditLedger.history(wsId, { type: "hold" }, { limit: 50 })).toEqual(
      await source.creditLedger.history(wsId, { type: "hold" }, { limit: 50 }),
    );
    for (const e of entries) expect(await target.creditLedger.get(wsId, e.id)).toEqual(e);

    // The hold was resolved already; a key replays its entry; the next grant takes the next seq.
    const again = await target.creditLedger.append({
      workspace_id: wsId,
      id: uuidv7(),
      at: stamp(),
      op: { type: "resolve", hold_id: entries[1]!.id, capture: 0 },
    });
    expect(again.ok ? "written" : again.reason).toBe("hold_resolved");
    const replay = await target.creditLedger.append({
      workspace_id: wsId,
      id: uuidv7(),
      at: stamp(),
      op: { type: "grant", amount: 5 },
      idempotency_key: "grant-1",
    });
    expect(replay.ok && replay.replayed && replay.entry.id).toBe(entries[0]!.id);
    const grant = await target.creditLedger.append({ workspace_id: wsId, id: uuidv7(), at: stamp(), op: { type: "grant", amount: 7 } });
    expect(grant.ok && { seq: grant.entry.seq, balance: grant.entry.balance_after }).toEqual({
      seq: totals.seq + 1,
      balance: totals.balance + 7,
    });

    // The kept answer replays on the copy.
    const begun = await target.idempotency.begin(
      { ...idem, state: "pending", status: null, body: null, created_at: stamp() },
      "2000-01-01T00:00:00.000Z",
    );
    expect(begun).toEqual({ kind: "done", record: { ...idem, body: { entry: { seq: 1, "a.b": [1, null, "ü"] } } } });
  },
};
