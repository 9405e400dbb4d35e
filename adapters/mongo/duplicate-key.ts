/**
 * A unique index refused the write. MongoDB reports E11000 (11001 on old servers), on the error
 * or in its write errors. FerretDB v1 on SQLite reports E11000 for inserts but an `InternalError`
 * quoting SQLite's "UNIQUE constraint failed" for updates, so that message counts too.
 */
export function isDuplicateKey(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const err = e as { code?: unknown; message?: unknown; writeErrors?: Array<{ code?: unknown }> };
  if (err.code === 11000 || err.code === 11001) return true;
  if (Array.isArray(err.writeErrors) && err.writeErrors.some((w) => w?.code === 11000)) return true;
  return typeof err.message === "string" && /E11000 duplicate key|UNIQUE constraint failed/.test(err.message);
}
