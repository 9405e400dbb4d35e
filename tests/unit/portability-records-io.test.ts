import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import type { LedgerEntry } from "../../core/credits/model.ts";
import { CREDIT_TRANSFER_KINDS, ledgerEntryDoc } from "../../core/credits/transfer.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { TransferDoc } from "../../core/kernel/store-transfer.ts";
import type { ArchiveKindIo } from "../../core/portability/kind-io.ts";
import { recordsKindIo } from "../../core/portability/kinds/records.ts";
import { lineProblems } from "../../core/portability/line-check.ts";
import type { ArchiveLine } from "../../core/portability/lines.ts";
import type { ArchiveKind } from "../../core/portability/model.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, stamp } from "../contract/fixtures.ts";
import { collectionsSeeder } from "../contract/transfer-seeds/collections.ts";
import { creditsSeeder } from "../contract/transfer-seeds/credits.ts";

const KINDS = ["collections", "entities", "records", "record_history", "credit_ledger"] as const;
type Kind = (typeof KINDS)[number];

const io = <K extends Kind>(k: K) => recordsKindIo[k] as ArchiveKindIo<K>;

async function linesOf<K extends Kind>(s: Stores, k: K, ws: string): Promise<ArchiveLine<K>[]> {
  const out: ArchiveLine<K>[] = [];
  for await (const l of io(k).lines(s, ws)) out.push(l);
  return out;
}

/** Writes every line's documents into `ws` of `s`, kind by kind in archive order; how many documents each write added. */
async function importLines(s: Stores, ws: string, lines: Map<Kind, unknown[]>): Promise<number> {
  let added = 0;
  for (const k of KINDS) {
    const byKind = new Map<string, TransferDoc[]>();
    for (const line of lines.get(k) ?? []) {
      for (const d of (io(k) as ArchiveKindIo<ArchiveKind>).toDocs(line as never, { workspaceId: ws, now: stamp() })) {
        byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d.doc]);
      }
    }
    for (const [name, docs] of byKind) added += await s.transfer.kinds.find((x) => x.name === name)!.write(docs);
  }
  return added;
}

async function exportAll(s: Stores, ws: string): Promise<Map<Kind, unknown[]>> {
  const out = new Map<Kind, unknown[]>();
  for (const k of KINDS) out.set(k, await linesOf(s, k, ws));
  return out;
}

describe("archive IO of collections, entities, records, record history and the credit ledger (ADR 070)", () => {
  test("lines → toDocs → write → lines is the identity for every kind, into an empty workspace; a second import adds nothing; the balance never moves", async () => {
    const source = createMemoryStores();
    const ws = await bootstrapped(source);
    await collectionsSeeder.seed(source, ws);
    await creditsSeeder.seed(source, ws);
    const exported = await exportAll(source, ws.workspace.id);
    for (const k of KINDS) {
      expect({ kind: k, some: exported.get(k)!.length > 0 }).toEqual({ kind: k, some: true });
      for (const line of exported.get(k)!) expect({ kind: k, problems: lineProblems(k, line) }).toEqual({ kind: k, problems: [] });
    }

    const target = createMemoryStores();
    const empty = (await bootstrapped(target)).workspace.id;
    expect(await importLines(target, empty, exported)).toBeGreaterThan(0);
    expect(await exportAll(target, empty)).toEqual(exported);
    expect(await importLines(target, empty, exported)).toBe(0);
    expect(await exportAll(target, empty)).toEqual(exported);
    // History only: the target's account is as empty as before, and the next grant is its first entry.
    expect(await target.creditLedger.totals(empty)).toEqual({ seq: 0, balance: 0, held: 0 });
    expect(await target.creditLedger.history(empty, {}, { limit: 10 })).toEqual([]);
    const grant = await target.creditLedger.append({ workspace_id: empty, id: uuidv7(), at: stamp(), op: { type: "grant", amount: 3 } });
    expect(grant.ok && grant.entry.seq).toBe(1);
  });

  test("the ledger lines of a workspace holding imported history and its own ledger: the imported first, then its own after them, one increasing seq order", async () => {
    const s = createMemoryStores();
    const ws = (await bootstrapped(s)).workspace.id;
    const own: LedgerEntry[] = [];
    for (const amount of [10, 20]) {
      const out = await s.creditLedger.append({ workspace_id: ws, id: uuidv7(), at: stamp(), op: { type: "grant", amount } });
      if (out.ok) own.push(out.entry);
    }
    // Only its own ledger: exported as stored.
    expect((await linesOf(s, "credit_ledger", ws)).map((l) => [l.id, l.seq])).toEqual(own.map((e) => [e.id, e.seq]));

    const at = stamp();
    const imported = [1, 2, 3].map((seq) => ({ ...own[0]!, id: uuidv7(), seq, amount: 1, balance_after: seq, at }));
    const kind = s.transfer.kinds.find((k) => k.name === CREDIT_TRANSFER_KINDS.importedEntries.name)!;
    expect(await kind.write(imported.map((e) => ledgerEntryDoc(ws, e)))).toBe(3);
    const lines = await linesOf(s, "credit_ledger", ws);
    expect(lines.map((l) => [l.id, l.seq])).toEqual([
      ...imported.map((e) => [e.id, e.seq]),
      ...own.map((e) => [e.id, e.seq + 3]),
    ]);
    // The balance is the own ledger's alone.
    expect(await s.creditLedger.totals(ws)).toEqual({ seq: 2, balance: 30, held: 0 });

    // Imported elsewhere, that export is again the same lines.
    const t = createMemoryStores();
    const other = (await bootstrapped(t)).workspace.id;
    await importLines(t, other, new Map([["credit_ledger", lines]]));
    expect(await linesOf(t, "credit_ledger", other)).toEqual(lines);
    expect(await t.creditLedger.totals(other)).toEqual({ seq: 0, balance: 0, held: 0 });
  });
});
