import type { Collection } from "mongodb";

/** One page and the total under the same filter; both served by the filter's index. */
export async function listPage<D extends { _id: string }, T>(
  coll: Collection<D>,
  filter: Record<string, unknown>,
  sort: Record<string, 1 | -1>,
  page: { limit: number; offset: number },
  map: (d: D) => T,
  projection?: Record<string, 0 | 1>,
): Promise<{ items: T[]; total: number }> {
  const limit = Math.max(0, Math.trunc(page.limit));
  const offset = Math.max(0, Math.trunc(page.offset));
  const [docs, total] = await Promise.all([
    limit === 0
      ? Promise.resolve([] as D[])
      : (coll.find(filter as never, projection ? { projection } : {}).sort(sort).skip(offset).limit(limit).toArray() as Promise<D[]>),
    coll.countDocuments(filter as never),
  ]);
  return { items: docs.map(map), total };
}
