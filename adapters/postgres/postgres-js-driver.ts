import postgres from "postgres";
import type { QueryOptions, SqlDriver } from "./driver.ts";

export interface PostgresJsOptions {
  /** Connections in the pool; default 10. */
  max?: number;
}

type Client = postgres.Sql | postgres.TransactionSql;

/** A driver over postgres.js: a pool for plain queries, `sql.begin` for transactions. */
export function postgresJsDriver(url: string, opts: PostgresJsOptions = {}): SqlDriver {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    // `create table if not exists` and friends raise notices; they are not worth a log line.
    onnotice: () => {},
    // Every timestamp is timestamptz and read as UTC; the stores turn Dates into ISO strings.
    connection: { TimeZone: "UTC" },
  });
  return wrap(sql, sql);
}

function wrap(client: Client, root: postgres.Sql): SqlDriver {
  const driver: SqlDriver = {
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T[]> {
      // Prepared (named) statements: parsed once per connection, typed by the server, so an
      // object passed for a jsonb parameter is serialised as JSON and a string for a
      // timestamptz parameter as a timestamp; after five runs PostgreSQL may keep a generic plan.
      // `planEach`: an unnamed statement, planned for its values every time. Tag and term
      // frequencies are skewed, and a generic plan chosen for one ran a common-word search 5 times
      // slower (bench/README.md); forcing custom plans on every statement instead (the setting
      // plan_cache_mode) cost simple inserts and lookups 40% of their throughput.
      const rows = await client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: !opts.planEach });
      return rows as unknown as T[];
    },
    async exec(text: string): Promise<void> {
      // No parameters and no preparing: the simple protocol, which runs several statements.
      await client.unsafe(text);
    },
    async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
      if (client !== root) return fn(driver);
      const result = await root.begin((tx) => fn(wrap(tx, root)));
      return result as T;
    },
    async close(): Promise<void> {
      if (client === root) await root.end({ timeout: 5 });
    },
  };
  return driver;
}
