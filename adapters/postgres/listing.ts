import type { OffsetPage } from "../../core/kernel/paging.ts";
import type { Listed } from "../../core/workspaces/ports.ts";
import type { QueryOptions, SqlDriver } from "./driver.ts";
import type { Row } from "./row-values.ts";

/**
 * One page of a list and the list's total in a single statement (one round trip, one snapshot):
 * the total row is left-joined to the page, so it comes back even when the page is empty.
 *
 * `page` selects the rows with their order, `limit $n` and `offset $m`; `count` selects
 * `count(*)::int as total` under the same filter; `order` repeats the page's order on the
 * `page` alias, since a join does not promise to keep it. Both must select `id`.
 */
export async function listPage<T>(
  db: SqlDriver,
  q: { page: string; count: string; order: string; params: unknown[]; map: (r: Row) => T },
  opts?: QueryOptions,
): Promise<Listed<T>> {
  const rows = await db.query<Row>(
    `with page as (${q.page})
     select c.total as listed_total__, page.*
     from (${q.count}) c left join page on true
     order by ${q.order}`,
    q.params,
    opts,
  );
  const total = Number(rows[0]?.listed_total__ ?? 0);
  const items = rows.filter((r) => r.id !== null && r.id !== undefined).map(q.map);
  return { items, total };
}

/** Bounds a page for SQL: integers, limit at least 0, offset at least 0. */
export function pageParams(page: OffsetPage): [number, number] {
  return [Math.max(0, Math.trunc(page.limit)), Math.max(0, Math.trunc(page.offset))];
}
