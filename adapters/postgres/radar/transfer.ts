import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { RADAR_TRANSFER_KINDS as K } from "../../../core/radar/transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { sqlKind } from "./sql-kind.ts";

const doc = (r: Row) => r.doc as TransferDoc;
const FROM = "from jsonb_array_elements($1::text::jsonb) d on conflict do nothing returning 1 as added";

/**
 * Radar's kinds on PostgreSQL/PGlite (migration 011, ADR 067, 072): searches, runs, results and
 * monitors are their jsonb documents, written with the columns their queries use taken from the
 * document as `insertRun`/`insertMonitor`/`claimResult` take them; steps are their columns.
 */
export function sqlRadarTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind(db, {
      ...K.searches,
      table: "radar_searches",
      columns: "workspace_id, id, doc",
      keyColumns: [{ column: "id" }],
      toDoc: doc,
      insert: `insert into radar_searches (workspace_id, id, doc) select (d->>'workspace_id')::uuid, (d->>'id')::uuid, d ${FROM}`,
    }),
    sqlKind(db, {
      ...K.runs,
      table: "radar_runs",
      columns: "workspace_id, id, doc",
      keyColumns: [{ column: "id" }],
      toDoc: doc,
      insert: `insert into radar_runs (workspace_id, id, search_id, state, lease_until, updated_at, version, doc)
        select (d->>'workspace_id')::uuid, (d->>'id')::uuid, (d->>'search_id')::uuid, d->>'state',
          (d->>'lease_until')::timestamptz, (d->>'updated_at')::timestamptz, (d->>'version')::int, d ${FROM}`,
    }),
    sqlKind(db, {
      ...K.runSteps,
      table: "radar_run_steps",
      columns: "workspace_id, run_id, seq, type, at, data",
      keyColumns: [{ column: "run_id" }, { column: "seq" }],
      toDoc: (r) => ({
        workspace_id: r.workspace_id as string,
        run_id: r.run_id as string,
        seq: Number(r.seq),
        type: r.type as string,
        at: iso(r.at),
        data: r.data as TransferDoc,
      }),
      insert: `insert into radar_run_steps (workspace_id, run_id, seq, type, at, data)
        select (d->>'workspace_id')::uuid, (d->>'run_id')::uuid, (d->>'seq')::int, d->>'type', (d->>'at')::timestamptz, d->'data' ${FROM}`,
    }),
    sqlKind(db, {
      ...K.runResults,
      table: "radar_run_results",
      columns: "workspace_id, run_id, provider_id, doc",
      keyColumns: [{ column: "run_id" }, { column: "provider_id", text: true }],
      toDoc: doc,
      insert: `insert into radar_run_results (workspace_id, run_id, provider_id, position, outcome, doc)
        select (d->>'workspace_id')::uuid, (d->>'run_id')::uuid, d->>'provider_id', (d->>'position')::int, d->>'outcome', d ${FROM}`,
    }),
    sqlKind(db, {
      ...K.monitors,
      table: "radar_monitors",
      columns: "workspace_id, id, doc",
      keyColumns: [{ column: "id" }],
      toDoc: doc,
      insert: `insert into radar_monitors (workspace_id, id, search_id, state, next_run_at, version, doc)
        select (d->>'workspace_id')::uuid, (d->>'id')::uuid, (d->>'search_id')::uuid, d->>'state',
          (d->>'next_run_at')::timestamptz, (d->>'version')::int, d ${FROM}`,
    }),
  ];
}
