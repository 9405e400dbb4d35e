import type { Usage } from "../../../core/billing/plans.ts";
import type { ClaimOutcome, PlanUsageStore } from "../../../core/billing/ports.ts";
import { CAPACITY_KINDS, type CapacityKind } from "../../../core/kernel/capacity.ts";
import { FOREIGN_KEY_VIOLATION, type SqlDriver, sqlState } from "../driver.ts";

/** The table whose rows each kind counts (a fixed map: no name ever comes from a caller). */
const TABLE_OF: Record<CapacityKind, string> = {
  members: "members",
  topics: "topics",
  collections: "collections",
  records: "collection_records",
};

/**
 * Counters in `plan_usage` (migration 015). A claim is one guarded update on the counter row,
 * which PostgreSQL evaluates on the locked row: concurrent claims queue on it, and each sees the
 * one before it.
 */
export class PostgresPlanUsageStore implements PlanUsageStore {
  constructor(private db: SqlDriver) {}

  /** Creates the counter from an exact count of the items unless it exists (a concurrent seed waits, then does nothing). */
  private async seed(workspaceId: string, kind: CapacityKind): Promise<void> {
    try {
      await this.db.query(
        `insert into plan_usage (workspace_id, kind, used)
         select $1, $2, count(*) from ${TABLE_OF[kind]} where workspace_id = $1
         on conflict (workspace_id, kind) do nothing`,
        [workspaceId, kind],
      );
    } catch (e) {
      // The workspace is gone: it holds nothing, and no counter is kept for it.
      if (sqlState(e) !== FOREIGN_KEY_VIOLATION) throw e;
    }
  }

  async usage(workspaceId: string): Promise<Usage> {
    const read = () =>
      this.db.query<{ kind: CapacityKind; used: string | number }>(
        "select kind, used from plan_usage where workspace_id = $1",
        [workspaceId],
      );
    let rows = await read();
    const missing = CAPACITY_KINDS.filter((k) => !rows.some((r) => r.kind === k));
    if (missing.length > 0) {
      for (const kind of missing) await this.seed(workspaceId, kind);
      rows = await read();
    }
    const usage = { members: 0, topics: 0, collections: 0, records: 0 };
    for (const r of rows) usage[r.kind] = Number(r.used);
    return usage;
  }

  async usageOf(workspaceIds: string[]): Promise<Map<string, Usage>> {
    const ids = [...new Set(workspaceIds)];
    const out = new Map<string, Usage>();
    if (ids.length === 0) return out;
    const read = () =>
      this.db.query<{ workspace_id: string; kind: CapacityKind; used: string | number }>(
        "select workspace_id, kind, used from plan_usage where workspace_id = any($1::uuid[])",
        [ids],
      );
    let rows = await read();
    const have = new Set(rows.map((r) => `${r.workspace_id}:${r.kind}`));
    const missing = ids.flatMap((id) => CAPACITY_KINDS.filter((k) => !have.has(`${id}:${k}`)).map((k) => [id, k] as const));
    if (missing.length > 0) {
      // Counters not touched yet are seeded once; after that a page costs one read.
      for (const [id, kind] of missing) await this.seed(id, kind);
      rows = await read();
    }
    for (const id of ids) out.set(id, { members: 0, topics: 0, collections: 0, records: 0 });
    for (const r of rows) out.get(r.workspace_id)![r.kind] = Number(r.used);
    return out;
  }

  async claim(workspaceId: string, kind: CapacityKind, n: number, limit: number | null): Promise<ClaimOutcome> {
    const take = () =>
      this.db.query<{ used: string }>(
        `update plan_usage set used = used + $3
         where workspace_id = $1 and kind = $2 and ($4::bigint is null or used + $3 <= $4::bigint)
         returning used`,
        [workspaceId, kind, n, limit],
      );
    const held = () =>
      this.db.query<{ used: string }>("select used from plan_usage where workspace_id = $1 and kind = $2", [workspaceId, kind]);
    // The counter first: seeding counts every item of the kind, which only its first claim may pay
    // (counting on every claim made each record create a scan of the workspace's records).
    // A refusal may only mean the counter did not exist yet (or was seeded meanwhile by a
    // concurrent claim): once it exists, the guarded update decides.
    if ((await take()).length > 0) return { ok: true };
    if ((await held()).length === 0) await this.seed(workspaceId, kind);
    if ((await take()).length > 0) return { ok: true };
    return { ok: false, used: Number((await held())[0]?.used ?? 0) };
  }

  async release(workspaceId: string, kind: CapacityKind, n: number): Promise<void> {
    // No counter yet: its seed will count the items as they are then.
    await this.db.query(
      "update plan_usage set used = greatest(0, used - $3) where workspace_id = $1 and kind = $2",
      [workspaceId, kind, n],
    );
  }
}
