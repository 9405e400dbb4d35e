import type { IdPage, Slice } from "../../../core/collections/ports.ts";
import { copy } from "../rows.ts";

/** Newest first by id (UUIDv7: creation order), the order collections and entities list in. */
export const newestFirst = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** One page after `page.afterId`, and whether more follow. */
export function idSlice<T extends { id: string }>(rows: T[], page: IdPage): Slice<T> {
  const after = rows.sort(newestFirst).filter((r) => page.afterId === undefined || r.id < page.afterId);
  return { items: after.slice(0, page.limit).map(copy), has_more: after.length > page.limit };
}
