import type { Collection } from "../../../core/collections/model.ts";
import { declaredRollups } from "../../../core/collections/record-rollup.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";

/**
 * Makes a collection's rollups (migration 023) those its views declare, inside the transaction
 * that stores the collection and holds its row `for update` (so no record write runs meanwhile):
 * a rollup no longer declared, or declared with another shape, is dropped with its groups; a new
 * one is built from the records there are (the backfill, one grouped scan). Unchanged ones stay.
 */
export async function syncRollups(tx: SqlDriver, c: Collection): Promise<void> {
  const want = declaredRollups(c).map((r) => ({ id: r.id, shape: r.shape }));
  const wanted = JSON.stringify(want.map((r) => [r.id, r.shape]));
  await tx.query(
    `delete from record_rollups d where workspace_id = $1 and collection_id = $2
       and not exists (select 1 from jsonb_array_elements($3::text::jsonb) w where w ->> 0 = d.id and w -> 1 = d.shape)`,
    [c.workspace_id, c.id, wanted],
  );
  const added = await tx.query<Row>(
    `insert into record_rollups (workspace_id, collection_id, id, shape)
     select $1, $2, w ->> 0, w -> 1 from jsonb_array_elements($3::text::jsonb) w
     on conflict do nothing returning id`,
    [c.workspace_id, c.id, wanted],
  );
  for (const { id } of added) {
    const r = want.find((x) => x.id === id)!;
    const params: unknown[] = [c.workspace_id, c.id, r.id, JSON.stringify(r.shape.keys)];
    const field = (f: string) => `record_rollup_number(fields, $${params.push(f)}::text)`;
    const sums = r.shape.sums.map((f) => `coalesce(sum(${field(f)}), 0)`);
    const counts = r.shape.sums.map((f) => `count(${field(f)})`);
    await tx.query(
      `insert into record_rollup_groups (workspace_id, collection_id, rollup, key, n, sums, counts)
       select $1, $2, $3, record_rollup_key(fields, status, entity_id, drifted, $4::text::jsonb) as key, count(*),
              array[${sums.join(", ")}]::numeric[], array[${counts.join(", ")}]::bigint[]
       from collection_records where workspace_id = $1 and collection_id = $2
       group by 4`,
      params,
    );
  }
}
