import postgres from "postgres";
import type { QueryOptions, SqlDriver } from "./driver.ts";
import { isConnectionLoss, storeUnavailable, unavailableOr } from "./connection-failures.ts";
import { ReplaceablePool } from "./postgres-js-pool.ts";

export interface PostgresJsOptions {
  /** Connections in the pool; default 10. */
  max?: number;
  /**
   * How long a statement may run (PostgreSQL's `statement_timeout`), and so about how long a caller
   * waits for one, its wait for a connection included; default 30 s.
   */
  statementTimeoutMs?: number;
  /** How long opening a connection may take before the attempt fails; default 5 s. */
  connectTimeoutMs?: number;
  /** `application_name` of its sessions; default `SERVICE_APPLICATION_NAME`. */
  applicationName?: string;
}

/**
 * The `application_name` of the service's sessions: `npm run store:copy` finds a server still
 * using a database by it in `pg_stat_activity` (server/store-copy/liveness.ts).
 */
export const SERVICE_APPLICATION_NAME = "wks-service";

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** Past the statement timeout, how long a caller still waits: the server's own timeout answers first when the server can. */
const DEADLINE_GRACE_MS = 1_000;
/** An idle connection is closed after this long (seconds), so a quiet process holds no stale sockets. */
const IDLE_TIMEOUT_S = 300;

/**
 * The connection settings of every postgres.js client of the service (the pools, the LISTEN bus),
 * docs/decisions/054-database-outages.md. postgres.js's defaults suit a database that never goes
 * away: a 30 s connect timeout, and a reconnect delay that grows with every failed attempt of the
 * pool up to 20 s, so after an outage requests waited up to 20 s for a server that was back.
 */
export function connectionOptions(opts: PostgresJsOptions = {}) {
  const statementMs = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  return {
    connect_timeout: (opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000,
    idle_timeout: IDLE_TIMEOUT_S,
    // Seconds before a connection that failed tries again: 50 ms doubling to at most half a
    // second, jittered. Cheap against a refused port; and back within a second of the server.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5) * (0.5 + Math.random() / 2),
    // Probe an idle socket after 10 s, so a peer that vanished without a reset is noticed.
    keep_alive: 10,
    // `create table if not exists` and friends raise notices; they are not worth a log line.
    onnotice: () => {},
    // Server-side bounds: a statement past its time is cancelled by the server, and a session
    // left idle inside a transaction (its client gone quiet) is ended, releasing its locks.
    connection: {
      application_name: opts.applicationName ?? SERVICE_APPLICATION_NAME,
      statement_timeout: statementMs,
      idle_in_transaction_session_timeout: Math.max(statementMs, 10_000),
    },
  };
}

interface Bounds {
  /** How long a caller waits for one statement (statement timeout + grace), in ms. */
  deadlineMs: number;
  statementTimeoutMs: number;
}

/**
 * A driver over postgres.js: a pool for plain queries, `sql.begin` for transactions. A lost
 * connection or a statement past its time reaches the caller as `STORE_UNAVAILABLE` (503), and the
 * pool that lost a connection is replaced (postgres-js-pool.ts).
 */
export function postgresJsDriver(url: string, opts: PostgresJsOptions = {}): SqlDriver {
  const shared = connectionOptions(opts);
  const statementTimeoutMs = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const bounds: Bounds = { statementTimeoutMs, deadlineMs: statementTimeoutMs + DEADLINE_GRACE_MS };
  const pool = (planCacheMode: "auto" | "force_custom_plan" | "force_generic_plan") =>
    new ReplaceablePool(
      () =>
        postgres(url, {
          ...shared,
          max: opts.max ?? 10,
          // Every timestamp is timestamptz and read as UTC; the stores turn Dates into ISO strings.
          connection: { ...shared.connection, TimeZone: "UTC", plan_cache_mode: planCacheMode },
        }),
      bounds.deadlineMs / 1000,
    );
  // The reads whose best plan depends on their values (`planEach`) run on connections that plan
  // every execution of their prepared statements for its values: tag and term frequencies are
  // skewed, and a generic plan chosen for one ran a common-word search 5 times slower
  // (bench/README.md). Everything else keeps PostgreSQL's default, where a simple statement soon
  // runs a cached plan: forcing custom plans on every statement cost inserts and lookups 40%.
  // The hot statements whose plan does not depend on their values (`planOnce`) run on
  // connections that always reuse the generic plan. Both opened on first use.
  const pools: Pools = { root: pool("auto"), planned: pool("force_custom_plan"), generic: pool("force_generic_plan"), inFlight: 0 };
  return wrap(null, pools, bounds, null);
}

interface Pools {
  root: ReplaceablePool;
  planned: ReplaceablePool;
  generic: ReplaceablePool;
  /** Statements and transactions under way on the pools: none at close, nothing is waited for. */
  inFlight: number;
}

/**
 * One transaction's fate as its caller sees it. postgres.js reuses a connection object after its
 * socket closed: a statement sent on it afterwards (the transaction's own ROLLBACK included) is
 * written to no socket and throws outside any promise, killing the process, or, once the object
 * reconnected for other work, runs outside the transaction (github.com/porsager/postgres/issues/1208 and /1215). So once
 * the connection is lost, nothing more is sent on it: the transaction is over on the server anyway.
 */
interface TxFate {
  /** Why the caller stopped waiting (the connection lost, a deadline passed); then no statement is sent any more. */
  over: unknown;
  /** Whether the connection was lost: then not even COMMIT or ROLLBACK is. */
  lost: boolean;
  /** Ends the caller's wait at once, without waiting for postgres.js to notice a close. */
  end(reason: unknown): void;
  lose(reason: unknown): void;
}

/** `work`, or `STORE_UNAVAILABLE` once `ms` pass; the work itself is not cancelled (the server's timeout does that). */
function bounded<T>(work: PromiseLike<T>, ms: number, onTimeout?: (e: unknown) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const e = storeUnavailable(new Error(`no answer within ${ms} ms`), ms);
      onTimeout?.(e);
      reject(e);
    }, ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** The driver over a pool (`tx` null) or over one transaction's connection. */
function wrap(tx: postgres.TransactionSql | null, pools: Pools, bounds: Bounds, fate: TxFate | null): SqlDriver {
  const driver: SqlDriver = {
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T[]> {
      if (fate?.over) throw unavailableOr(fate.over);
      // Prepared (named) statements: parsed once per connection, typed by the server, so an
      // object passed for a jsonb parameter is serialised as JSON and a string for a
      // timestamptz parameter as a timestamp. Inside a transaction, its own connection.
      const pool = tx ? null : opts.planEach ? pools.planned : opts.planOnce ? pools.generic : pools.root;
      const client = tx ?? pool!.get();
      if (!tx) pools.inFlight++;
      try {
        const rows = await bounded(
          client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }),
          bounds.deadlineMs,
          fate ? (e) => fate.end(e) : undefined,
        );
        return rows as unknown as T[];
      } catch (e) {
        if (isConnectionLoss(e)) {
          if (fate) fate.lose(e);
          else pool!.lost(client as postgres.Sql);
        }
        throw unavailableOr(e, bounds.statementTimeoutMs);
      } finally {
        if (!tx) pools.inFlight--;
      }
    },
    async exec(text: string): Promise<void> {
      if (fate?.over) throw unavailableOr(fate.over);
      // No parameters and no preparing: the simple protocol, which runs several statements.
      // Unbounded by the client: migrations run here (they lift the server's bound too).
      const client = tx ?? pools.root.get();
      if (!tx) pools.inFlight++;
      try {
        await client.unsafe(text);
      } catch (e) {
        if (isConnectionLoss(e)) {
          if (fate) fate.lose(e);
          else pools.root.lost(client as postgres.Sql);
        }
        throw unavailableOr(e, bounds.statementTimeoutMs);
      } finally {
        if (!tx) pools.inFlight--;
      }
    },
    async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
      if (tx) return fn(driver);
      pools.inFlight++;
      try {
        return await runTransaction(pools, bounds, fn);
      } finally {
        pools.inFlight--;
      }
    },
    async close(): Promise<void> {
      if (tx) return;
      // A statement still running gets a second; with none, the pools end at once (postgres.js
      // would wait the whole timeout for a connection lost with a statement in flight).
      const timeoutS = pools.inFlight > 0 ? 1 : 0;
      await Promise.all([pools.root.end(timeoutS), pools.planned.end(timeoutS), pools.generic.end(timeoutS)]);
    },
  };
  return driver;
}

/**
 * `fn` in one transaction on its own connection. The caller's wait ends as soon as the
 * connection is lost or a statement passes its deadline; when the connection was lost, `fn`'s
 * outcome is never handed back to postgres.js, so it sends neither COMMIT nor ROLLBACK on a
 * connection that is gone (the server rolled the transaction back when it lost the session).
 */
async function runTransaction<T>(pools: Pools, bounds: Bounds, fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
  let endWait!: (reason: unknown) => void;
  const ended = new Promise<never>((_, reject) => (endWait = reject));
  ended.catch(() => {}); // observed through the race below; a late end is nobody's business
  const fate: TxFate = {
    over: null,
    lost: false,
    end(reason) {
      if (fate.over) return;
      fate.over = reason;
      endWait(reason);
    },
    lose(reason) {
      fate.lost = true;
      fate.end(reason);
    },
  };
  // Waiting for a connection to begin on: bounded like a statement. Should it begin later, it
  // finds the caller gone and rolls back at once.
  const start = setTimeout(() => fate.end(storeUnavailable(new Error("no connection"), bounds.deadlineMs)), bounds.deadlineMs);
  const root = pools.root.get();
  const work = root.begin((sql) =>
    new Promise<T>((resolve, reject) => {
      clearTimeout(start);
      if (fate.over) return reject(fate.over);
      fn(wrap(sql, pools, bounds, fate)).then(
        (value) => {
          if (!fate.over) resolve(value);
          else if (!fate.lost) reject(fate.over); // the caller gave up: roll back
        },
        (e) => {
          // One turn later: a statement failing as its socket closes fails before postgres.js
          // has told the transaction the connection is gone, and the error may not say so.
          setImmediate(() => {
            if (!fate.lost) reject(e);
          });
        },
      );
    })
  );
  // postgres.js rejects the transaction when its connection closes, statement in flight or not.
  work.catch((e) => {
    if (!isConnectionLoss(e)) return;
    fate.lose(e);
    pools.root.lost(root);
  });
  try {
    return (await Promise.race([work, ended])) as T;
  } catch (e) {
    throw unavailableOr(e, bounds.statementTimeoutMs);
  } finally {
    clearTimeout(start);
  }
}
