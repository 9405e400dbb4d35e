import {
  type Collection,
  COLLECTION_TRANSFER_KINDS as C,
  type Entity,
  normalizeDedupKey,
  type RecordChange,
  recordFromTransfer,
} from "../../collections/mod.ts";
import { CREDIT_TRANSFER_KINDS as L, ledgerEntryDoc, ledgerEntryFromDoc } from "../../credits/mod.ts";
import type { StoreTransfer, TransferDoc, TransferKind } from "../../kernel/store-transfer.ts";
import type { ArchiveKindIoTable } from "../kind-io.ts";
import { toArchiveLine } from "../to-line.ts";

/** The store's transfer kind of that name (every adapter declares the kinds of these modules). */
function kindOf(stores: { transfer: StoreTransfer }, name: string): TransferKind {
  const kind = stores.transfer.kinds.find((k) => k.name === name);
  if (!kind) throw new Error(`the store has no transfer kind ${name}`);
  return kind;
}

/** A workspace's documents of a kind, in key order, streamed. */
function docsOf(stores: { transfer: StoreTransfer }, name: string, workspaceId: string): AsyncIterable<TransferDoc> {
  return kindOf(stores, name).read({ workspaceId });
}

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/**
 * The archive kinds of collections and credits (ADR 067, ADR 070): their lines read through the
 * transfer kinds of the workspace, and a line's documents again. A line carries every stored
 * field but the workspace and what the store derives (a record's search text, an entity's
 * `dedup_norm`, computed here as the entity write computes it), so lines → documents → lines is
 * the identity.
 *
 * The credit ledger is history only on import: a line becomes an entry of
 * `credits.imported_entries`, which no balance counts. An export emits the workspace's imported
 * history first, then its own ledger, the own entries' `seq` after the imported ones (offset by
 * the highest imported seq), so the lines keep one strictly increasing seq order; a workspace
 * that holds only one of the two exports it as stored.
 */
export const recordsKindIo: ArchiveKindIoTable = {
  collections: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, C.collections.name, workspaceId)) yield toArchiveLine.collections(d as unknown as Collection);
    },
    toDocs: (line, ctx) => [{ kind: C.collections.name, doc: asDoc<Collection>({ ...line, workspace_id: ctx.workspaceId }) }],
  },
  entities: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, C.entities.name, workspaceId)) yield toArchiveLine.entities(d as unknown as Entity);
    },
    toDocs: (line, ctx) => [{
      kind: C.entities.name,
      doc: asDoc<Entity>({
        ...line,
        workspace_id: ctx.workspaceId,
        dedup_norm: line.dedup_key === null ? null : normalizeDedupKey(line.dedup_key),
      }),
    }],
  },
  records: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, C.records.name, workspaceId)) yield toArchiveLine.records(recordFromTransfer(d));
    },
    toDocs: (line, ctx) => [{ kind: C.records.name, doc: asDoc({ ...line, workspace_id: ctx.workspaceId }) }],
  },
  record_history: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, C.recordChanges.name, workspaceId)) {
        yield toArchiveLine.record_history(d as unknown as RecordChange);
      }
    },
    toDocs: (line, ctx) => [{ kind: C.recordChanges.name, doc: asDoc<RecordChange>({ ...line, workspace_id: ctx.workspaceId }) }],
  },
  credit_ledger: {
    async *lines(stores, workspaceId) {
      let offset = 0;
      for await (const d of docsOf(stores, L.importedEntries.name, workspaceId)) {
        const { entry } = ledgerEntryFromDoc(d);
        offset = entry.seq;
        yield toArchiveLine.credit_ledger(entry);
      }
      for await (const d of docsOf(stores, L.ledgerEntries.name, workspaceId)) {
        const { entry } = ledgerEntryFromDoc(d);
        yield toArchiveLine.credit_ledger({ ...entry, seq: entry.seq + offset });
      }
    },
    toDocs: (line, ctx) => [{ kind: L.importedEntries.name, doc: ledgerEntryDoc(ctx.workspaceId, line) }],
  },
};
