import type { LedgerEntry } from "../../../core/credits/model.ts";
import {
  CREDIT_TRANSFER_KINDS as K,
  idempotencyDoc,
  idempotencyFromDoc,
  ledgerEntryDoc,
  ledgerEntryFromDoc,
} from "../../../core/credits/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { memoryTransferKind } from "../transfer-rows.ts";
import type { CreditTables } from "./tables.ts";

const uniques = (e: LedgerEntry): string[] => [
  `s:${e.seq}`,
  `i:${e.id}`,
  ...(e.idempotency_key === null ? [] : [`k:${e.idempotency_key}`]),
  ...(e.hold_id === null ? [] : [`h:${e.hold_id}`]),
];

/**
 * What adds an entry to one of the workspaces' ledgers (own or imported) unless its seq, id,
 * idempotency key or resolved hold is there already, keeping each list in seq order (the ledger
 * store reads its newest entry as the last). A workspace's unique values are gathered once a write.
 */
function entryAdder(ledgers: Map<string, LedgerEntry[]>): (doc: TransferDoc) => boolean {
  const taken = new Map<string, Set<string>>();
  return (doc) => {
    const { workspaceId, entry } = ledgerEntryFromDoc(doc);
    const entries = ledgers.get(workspaceId) ?? [];
    let mine = taken.get(workspaceId);
    if (!mine) taken.set(workspaceId, mine = new Set(entries.flatMap(uniques)));
    const keys = uniques(entry);
    if (keys.some((k) => mine.has(k))) return false;
    for (const k of keys) mine.add(k);
    const last = entries.at(-1);
    entries.push(entry);
    if (last && last.seq > entry.seq) entries.sort((a, b) => a.seq - b.seq);
    ledgers.set(workspaceId, entries);
    return true;
  };
}

const entriesOf = (ledgers: Map<string, LedgerEntry[]>) => () =>
  [...ledgers].flatMap(([ws, entries]) => entries.map((e) => ledgerEntryDoc(ws, e)));

/** Credits' kinds over the memory tables (core/credits/transfer.ts). */
export function memoryCreditTransfer(t: CreditTables): TransferKind[] {
  return [
    memoryTransferKind(K.ledgerEntries, entriesOf(t.ledgers), () => entryAdder(t.ledgers)),
    memoryTransferKind(K.importedEntries, entriesOf(t.importedLedgers), () => entryAdder(t.importedLedgers)),
    memoryTransferKind(K.idempotency, () => [...t.idempotency.values()].map((r) => idempotencyDoc(structuredClone(r))), () => (d) => {
      const r = idempotencyFromDoc(d);
      const k = `${r.workspace_id}:${r.scope}:${r.key}`;
      if (t.idempotency.has(k)) return false;
      t.idempotency.set(k, r);
      return true;
    }),
  ];
}
