import type { Collection, Entity, RecordChange } from "../../../core/collections/model.ts";
import { COLLECTION_TRANSFER_KINDS as K, recordFromTransfer, recordTransferDoc } from "../../../core/collections/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { sqlTenantKind } from "../transfer-rows.ts";
import { toChange } from "./record-store.ts";
import { syncRollups } from "./rollup-sync.ts";
import { CHANGE_COLUMNS, COLLECTION_COLUMNS, ENTITY_COLUMNS, RECORD_COLUMNS, toCollection, toEntity, toRecord } from "./rows.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/** `insert … select … from jsonb_to_recordset($1)`: a batch in one statement, rows whose key (or any unique value) is taken left alone. */
async function insertRows(tx: SqlDriver, table: string, columns: string, types: string, rows: unknown[], extra = ""): Promise<Row[]> {
  return await tx.query<Row>(
    `insert into ${table} (${columns})
     select ${columns} from jsonb_to_recordset($1::text::jsonb) as d(${types}) ${extra}
     on conflict do nothing returning workspace_id, id`,
    [JSON.stringify(rows)],
  );
}

/**
 * Collections' kinds over PostgreSQL (core/collections/transfer.ts). A collection written builds
 * its declared rollups as the store's insert does (rollup-sync.ts); records written after it fill
 * their groups through the statement triggers of migration 023, and `numbers` is generated: the
 * copy answers the same rollups with no rebuild. A record whose collection is not there is not
 * written (as the store's insert refuses it).
 */
export function sqlCollectionTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlTenantKind(db, {
      ...K.collections,
      table: "collections",
      columns: COLLECTION_COLUMNS,
      order: ["id"],
      toDoc: (r) => asDoc(toCollection(r)),
      async insert(tx, docs) {
        const cs = docs as unknown as Collection[];
        const added = await insertRows(
          tx,
          "collections",
          `${COLLECTION_COLUMNS}, name_folded`,
          `workspace_id uuid, id uuid, name text, archetype text, status text, record_schema jsonb, views jsonb, criterion_rel_slugs text[],
           distill_policy jsonb, connector_mapping jsonb, presentation jsonb, owner_identity_id text, created_by text, version integer,
           created_at text, updated_at text, name_folded text`,
          cs.map((c) => ({ ...c, name_folded: c.name.toLowerCase() })),
        );
        const ids = new Set(added.map((r) => `${r.workspace_id}:${r.id}`));
        for (const c of cs) if (ids.has(`${c.workspace_id}:${c.id}`)) await syncRollups(tx, c);
        return added.length;
      },
    }),
    sqlTenantKind(db, {
      ...K.entities,
      table: "entities",
      columns: ENTITY_COLUMNS,
      order: ["id"],
      toDoc: (r) => asDoc(toEntity(r)),
      async insert(tx, docs) {
        const added = await insertRows(
          tx,
          "entities",
          ENTITY_COLUMNS,
          `workspace_id uuid, id uuid, kind text, name text, dedup_key text, dedup_norm text, attributes jsonb, version integer,
           created_at text, updated_at text`,
          docs as unknown as Entity[],
        );
        return added.length;
      },
    }),
    sqlTenantKind(db, {
      ...K.records,
      table: "collection_records",
      columns: RECORD_COLUMNS,
      order: ["collection_id", "id"],
      toDoc: (r) => recordTransferDoc(toRecord(r)),
      async insert(tx, docs) {
        const added = await insertRows(
          tx,
          "collection_records",
          RECORD_COLUMNS,
          `workspace_id uuid, collection_id uuid, id uuid, fields jsonb, status text, field_meta jsonb, entity_id text, drifted boolean,
           search_text text, created_by text, updated_by text, version integer, created_at text, updated_at text`,
          docs.map(recordFromTransfer),
          `where exists (select 1 from collections c where c.workspace_id = d.workspace_id and c.id = d.collection_id)`,
        );
        return added.length;
      },
    }),
    sqlTenantKind(db, {
      ...K.recordChanges,
      table: "record_changes",
      columns: CHANGE_COLUMNS,
      order: ["record_id", "version"],
      toDoc: (r) => asDoc(toChange(r)),
      async insert(tx, docs) {
        const added = await insertRows(
          tx,
          "record_changes",
          CHANGE_COLUMNS,
          `workspace_id uuid, record_id uuid, version integer, collection_id uuid, id uuid, type text, actor_id text, actor_kind text,
           at text, diff jsonb, stage jsonb, outcome jsonb`,
          docs as unknown as RecordChange[],
        );
        return added.length;
      },
    }),
  ];
}
