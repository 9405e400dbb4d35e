import type { TransferDoc, TransferKind, TransferScope } from "../../../core/kernel/store-transfer.ts";
import { WORKSPACE_TRANSFER_KINDS as K } from "../../../core/workspaces/transfer.ts";
import { isoOrNull, type SqlDriver } from "../driver.ts";
import { json, type Row } from "../row-values.ts";
import { toArea, toIdentity, toMember, toRepo, toWorkspace } from "./rows.ts";

/** One column of a kind's table: its name and the cast its parameter takes (`uuid`, `timestamptz`, `text::jsonb`). */
export interface SqlColumn {
  name: string;
  cast: string;
  /** The parameter from the document (default: the field of the same name, as it is). */
  param?: (doc: TransferDoc) => unknown;
}

export interface SqlKindSpec {
  name: string;
  tenant: boolean;
  key: readonly string[];
  table: string;
  columns: readonly SqlColumn[];
  toDoc: (row: Row) => TransferDoc;
}

const PAGE = 500;

/**
 * A kind over one table keyed by `id` (a tenant table by `(workspace_id, id)`, its primary key):
 * keyset pages of 500 in key order, never OFFSET; writes of one multi-row insert that leaves a
 * taken key (or unique value) alone. Shared by this group's modules on PostgreSQL/PGlite.
 */
export function sqlKind(db: SqlDriver, spec: SqlKindSpec): TransferKind {
  const cols = spec.columns.map((c) => c.name).join(", ");
  async function* read(scope?: TransferScope): AsyncIterable<TransferDoc> {
    if (scope?.workspaceId !== undefined && !spec.tenant) return;
    let after: Row | null = null;
    for (;;) {
      // One statement per shape (first page or after a key), so each plan uses the primary key.
      const head = `select ${cols} from ${spec.table}`;
      let rows: Row[];
      if (spec.tenant && scope?.workspaceId !== undefined) {
        rows = after === null
          ? await db.query<Row>(`${head} where workspace_id = $1::uuid order by id limit ${PAGE}`, [scope.workspaceId])
          : await db.query<Row>(`${head} where workspace_id = $1::uuid and id > $2::uuid order by id limit ${PAGE}`, [
            scope.workspaceId,
            after.id,
          ]);
      } else if (spec.tenant) {
        rows = after === null
          ? await db.query<Row>(`${head} order by workspace_id, id limit ${PAGE}`)
          : await db.query<Row>(`${head} where (workspace_id, id) > ($1::uuid, $2::uuid) order by workspace_id, id limit ${PAGE}`, [
            after.workspace_id,
            after.id,
          ]);
      } else {
        rows = after === null
          ? await db.query<Row>(`${head} order by id limit ${PAGE}`)
          : await db.query<Row>(`${head} where id > $1::uuid order by id limit ${PAGE}`, [after.id]);
      }
      for (const r of rows) yield spec.toDoc(r);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!;
    }
  }
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    read,
    async write(docs) {
      if (docs.length === 0) return 0;
      const params: unknown[] = [];
      const tuples = docs.map((d) =>
        `(${
          spec.columns.map((c) => {
            params.push(c.param ? c.param(d) : d[c.name] ?? null);
            return `$${params.length}::${c.cast}`;
          }).join(", ")
        })`
      );
      const rows = await db.query<Row>(
        `insert into ${spec.table} (${cols}) values ${tuples.join(", ")} on conflict do nothing returning 1 as added`,
        params,
      );
      return rows.length;
    },
    async count(scope) {
      if (scope?.workspaceId !== undefined && !spec.tenant) return 0;
      const rows = scope?.workspaceId !== undefined
        ? await db.query<Row>(`select count(*)::int as n from ${spec.table} where workspace_id = $1::uuid`, [scope.workspaceId])
        : await db.query<Row>(`select count(*)::int as n from ${spec.table}`);
      return Number(rows[0]!.n);
    },
  };
}

const c = (name: string, cast = "text", param?: SqlColumn["param"]): SqlColumn => ({ name, cast, ...(param ? { param } : {}) });
const asDoc = (v: unknown) => v as TransferDoc;

/** Workspaces' kinds on PostgreSQL/PGlite (core/workspaces/transfer.ts). */
export function sqlWorkspaceTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind(db, {
      ...K.identities,
      table: "identities",
      columns: [c("id", "uuid"), c("email"), c("name"), c("created_at", "timestamptz"), c("provider_event_at", "timestamptz")],
      toDoc: (r) => asDoc({ ...toIdentity(r), provider_event_at: isoOrNull(r.provider_event_at) }),
    }),
    sqlKind(db, {
      ...K.workspaces,
      table: "workspaces",
      columns: [
        c("id", "uuid"),
        c("slug"),
        c("name"),
        c("plan"),
        c("settings", "text::jsonb", (d) => json(d.settings)),
        c("created_at", "timestamptz"),
        c("updated_at", "timestamptz"),
      ],
      toDoc: (r) => asDoc(toWorkspace(r)),
    }),
    sqlKind(db, {
      ...K.members,
      table: "members",
      columns: [
        c("workspace_id", "uuid"),
        c("id", "uuid"),
        c("identity_id", "uuid"),
        c("role"),
        c("created_at", "timestamptz"),
        c("updated_at", "timestamptz"),
      ],
      toDoc: (r) => asDoc(toMember(r)),
    }),
    sqlKind(db, {
      ...K.areas,
      table: "areas",
      columns: [
        c("workspace_id", "uuid"),
        c("id", "uuid"),
        c("name"),
        c("description"),
        c("created_at", "timestamptz"),
        c("updated_at", "timestamptz"),
      ],
      toDoc: (r) => asDoc(toArea(r)),
    }),
    sqlKind(db, {
      ...K.repos,
      table: "repos",
      columns: [
        c("workspace_id", "uuid"),
        c("id", "uuid"),
        c("provider"),
        c("full_name"),
        c("default_branch"),
        c("clone_url"),
        c("created_at", "timestamptz"),
      ],
      toDoc: (r) => asDoc(toRepo(r)),
    }),
  ];
}
