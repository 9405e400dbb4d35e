import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { aggregateSql, Params, rollupSql } from "../../adapters/postgres/collections/record-sql.ts";
import type { Collection } from "../../core/collections/model.ts";
import { compareGroups, compileAggregate } from "../../core/collections/record-aggregate.ts";
import { declaredRollups } from "../../core/collections/record-rollup.ts";
import type { Stores } from "../../core/stores.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { bootstrapped, collectionFixture } from "./fixtures.ts";

/**
 * The plans behind the records aggregate targets of ADR 039, on PostgreSQL with
 * statistics of 20,000 records: a declared aggregate reads its rollup's groups by the rollup's key
 * and never the records; an ad-hoc one reads the collection's records (a scan, no rollup).
 */
describe("postgres: plans of the records aggregates", () => {
  let stores: Stores;
  let sql: postgres.Sql;
  let c: Collection;
  const spec = { group_by: ["status"], metrics: [{ fn: "count" as const }, { fn: "sum" as const, field: "fields.amount" }] };

  beforeAll(async () => {
    const url = await freshDatabase(await sharedPostgres());
    stores = await openPostgresStores(url);
    sql = postgres(url, { max: 1, onnotice: () => {} });
    const ws = (await bootstrapped(stores)).workspace.id;
    c = collectionFixture(ws, { views: [{ name: "Pipeline", kind: "board", aggregates: [{ name: "by_status", ...spec }] }] }) as Collection;
    await stores.collections.insert(c);
    // Written in one statement: the rollup trigger keeps up with it as with any write.
    await sql.unsafe(
      `insert into collection_records (workspace_id, collection_id, id, fields, status, field_meta, entity_id, drifted, search_text,
         created_by, updated_by, version, created_at, updated_at)
       select $1, $2, gen_random_uuid(), jsonb_build_object('company', 'C' || i, 'amount', i % 1000),
              (array['lead', 'qualified', 'won', 'lost'])[1 + i % 4], '{}', null, false, 'c' || i, null, null, 1, $3, $3
       from generate_series(1, 20000) i`,
      [c.workspace_id, c.id, c.created_at],
    );
    await sql.unsafe("vacuum analyze");
  }, 120_000);
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stores?.close();
  });

  const plan = async (text: string, values: unknown[], options = "") =>
    (await sql.unsafe(`explain ${options && `(${options}) `}${text}`, values as never[])).map((r) => r["QUERY PLAN"] as string).join("\n");
  /**
   * The plan where sequential scans are a last resort: this database's rollup tables hold one
   * rollup of four groups, which the planner rightly reads whole; in a database of many
   * workspaces these keys are what finds the rows, and the plan shows that they can.
   */
  const indexedPlan = (text: string, values: unknown[]) =>
    sql.begin(async (tx) => {
      await tx.unsafe("set local enable_seqscan = off");
      return (await tx.unsafe(`explain ${text}`, values as never[])).map((r) => r["QUERY PLAN"] as string).join("\n");
    });

  test("a declared aggregate: an index range of record_rollup_groups, the records untouched", async () => {
    const [rollup] = declaredRollups(c);
    const p = new Params(c.workspace_id, c.id);
    const text = rollupSql(rollup!.spec, rollup!.id, rollup!.shape, p);
    const shown = await indexedPlan(text, p.values);
    console.log(`declared aggregate:\n${shown}`);
    expect(shown).toMatch(/Index (Only )?Scan using record_rollup_groups_pkey on record_rollup_groups/);
    expect(shown).toMatch(/record_rollups_pkey/);
    expect(shown).not.toContain("collection_records");
    const groups = await stores.records.aggregateRollup(c.workspace_id, c.id, rollup!, rollup!.spec);
    const scanned = await stores.records.aggregate(c.workspace_id, c.id, rollup!.spec);
    expect(groups?.sort(compareGroups)).toEqual(scanned.sort(compareGroups));
    expect(groups?.map((g) => g.count)).toEqual([5000, 5000, 5000, 5000]);
  });

  test("an ad-hoc aggregate: the collection's records, grouped, each amount read from `numbers`, never from `fields`", async () => {
    const { spec: compiled } = compileAggregate(c.record_schema, spec);
    const p = new Params(c.workspace_id, c.id);
    const shown = await plan(aggregateSql(compiled, "workspace_id = $1 and collection_id = $2", p), p.values, "verbose");
    console.log(`ad-hoc aggregate:\n${shown}`);
    expect(shown).toMatch(/Seq Scan on public\.collection_records/);
    // What the grouping computes (the scan below it hands up whole rows): the typed read of
    // migration 028, no jsonb value extracted from `fields` to check its type.
    const grouped = shown.match(/HashAggregate[^\n]*\n\s*Output: ([^\n]*)/)?.[1];
    expect(grouped).toContain("sum(((collection_records.numbers ->> 'amount'::text))::double precision)");
    expect(grouped).not.toContain("fields");
    expect(shown).not.toContain("record_rollup");
    const groups = await stores.records.aggregate(c.workspace_id, c.id, compiled);
    // As seeded: record i (1…20,000) has status number i % 4 and amount i % 1000.
    const sums = new Map<string, number>();
    for (let i = 1; i <= 20000; i++) {
      const status = ["lead", "qualified", "won", "lost"][i % 4]!;
      sums.set(status, (sums.get(status) ?? 0) + (i % 1000));
    }
    expect(groups.sort(compareGroups).map((g) => [g.key, g.count, g.values])).toEqual(
      ["lead", "lost", "qualified", "won"].map((status) => [[status], 5000, [sums.get(status)!]]),
    );
  });
});
