/**
 * The one private seam between the SQL stores and a database client (Lucia v3's "controller"):
 * every store is written once against it, and each driver is a short shim over its client.
 */
export interface QueryOptions {
  /**
   * Plan each execution for its own values instead of reusing a cached generic plan: for reads
   * whose best plan depends on how common a value is (a popular tag against a rare one, a common
   * word against a rare one). Planning costs; simple statements skip it.
   */
  planEach?: boolean;
  /**
   * Reuse one generic plan from the statement's first execution on: for statements on a hot
   * path whose best plan is the same whatever their values (key lookups, the unlock's writes),
   * which PostgreSQL's default would plan on every execution anyway because a plan for the
   * values at hand (an array of one key) is estimated cheaper than the generic one (an array of
   * ten). Planning the unlock's statements was a quarter of PostgreSQL's CPU per unlock
   * (docs/decisions/045-unlock-plans-once.md).
   */
  planOnce?: boolean;
}

/** The option of the reads whose plans depend on their values. */
export const PLAN_EACH: QueryOptions = { planEach: true };
/** The option of the hot statements whose plan does not depend on their values. */
export const PLAN_ONCE: QueryOptions = { planOnce: true };

export interface SqlDriver {
  readonly kind: "postgres" | "pglite";
  /** Runs one parameterised statement (`$1`, `$2`, ...) and returns its rows. */
  query<T>(text: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * Runs `fn` in one transaction: committed when it returns, rolled back when it throws. Called
   * on a transaction's own driver, it runs `fn` in that same transaction.
   */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown inside a transaction to roll it back and hand `value` to the caller as the result. */
class Rollback<T> {
  constructor(readonly value: T) {}
}

/**
 * Runs `fn` in a transaction. `fn` receives `abort(value)`: calling it (and returning what it
 * returns) rolls everything back and makes `value` the result, so a refusal such as "slug_taken"
 * leaves nothing half-written.
 */
export async function inTransaction<T>(
  driver: SqlDriver,
  fn: (tx: SqlDriver, abort: (value: T) => never) => Promise<T>,
): Promise<T> {
  const abort = (value: T): never => {
    throw new Rollback(value);
  };
  try {
    return await driver.transaction((tx) => fn(tx, abort));
  } catch (e) {
    if (e instanceof Rollback) return e.value as T;
    throw e;
  }
}

/** SQLSTATE of a database error, whichever client raised it (both expose `code`). */
export function sqlState(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof (e as { code: unknown }).code === "string") {
    return (e as { code: string }).code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = "23505";
/** A check constraint refused a write (the credit account's available ≥ 0 guards radar's unlock hold). */
export const CHECK_VIOLATION = "23514";
export const FOREIGN_KEY_VIOLATION = "23503";

/** Timestamps come back from both clients as `Date`; the models carry ISO 8601 UTC strings. */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return new Date(value).toISOString();
  throw new TypeError(`Cannot read timestamp: got ${typeof value}`);
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}
