/**
 * Row helpers of the memory adapter. Each module's tables are in its folder (`<module>/tables.ts`);
 * every store method runs synchronously between awaits, so each is atomic like a transaction.
 */
/** Copies on the way in and out, so callers never hold a live reference to stored state. */
export const copy = <T>(value: T): T => structuredClone(value);

export function page<T>(rows: T[], offset: number, limit: number): { items: T[]; total: number } {
  return { items: rows.slice(offset, offset + limit).map(copy), total: rows.length };
}

export const byCreated = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function inWorkspace<T extends { workspace_id: string }>(rows: Map<string, T>, workspaceId: string): T[] {
  const out: T[] = [];
  for (const r of rows.values()) if (r.workspace_id === workspaceId) out.push(r);
  return out;
}
