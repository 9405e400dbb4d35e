import postgres from "postgres";
import type { QueryOptions, SqlDriver } from "./driver.ts";

export interface PostgresJsOptions {
  /** Connections in the pool; default 10. */
  max?: number;
}

type Client = postgres.Sql | postgres.TransactionSql;

/** A driver over postgres.js: a pool for plain queries, `sql.begin` for transactions. */
export function postgresJsDriver(url: string, opts: PostgresJsOptions = {}): SqlDriver {
  const options = (planCacheMode: "auto" | "force_custom_plan" | "force_generic_plan") =>
    ({
      max: opts.max ?? 10,
      // `create table if not exists` and friends raise notices; they are not worth a log line.
      onnotice: () => {},
      // Every timestamp is timestamptz and read as UTC; the stores turn Dates into ISO strings.
      connection: { TimeZone: "UTC", plan_cache_mode: planCacheMode },
    }) as const;
  const sql = postgres(url, options("auto"));
  // The reads whose best plan depends on their values (`planEach`) run on connections that plan
  // every execution of their prepared statements for its values: tag and term frequencies are
  // skewed, and a generic plan chosen for one ran a common-word search 5 times slower
  // (bench/README.md). Everything else keeps PostgreSQL's default, where a simple statement soon
  // runs a cached plan: forcing custom plans on every statement cost inserts and lookups 40%.
  // The hot statements whose plan does not depend on their values (`planOnce`) run on
  // connections that always reuse the generic plan. Both opened on first use.
  let planned: postgres.Sql | null = null;
  let generic: postgres.Sql | null = null;
  const pools: Pools = {
    root: sql,
    planned: () => (planned ??= postgres(url, options("force_custom_plan"))),
    generic: () => (generic ??= postgres(url, options("force_generic_plan"))),
    end: async () => {
      await Promise.all([sql.end({ timeout: 5 }), planned?.end({ timeout: 5 }), generic?.end({ timeout: 5 })]);
    },
  };
  return wrap(sql, pools);
}

interface Pools {
  root: postgres.Sql;
  planned(): postgres.Sql;
  generic(): postgres.Sql;
  end(): Promise<void>;
}

function wrap(client: Client, pools: Pools): SqlDriver {
  const root = pools.root;
  const driver: SqlDriver = {
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T[]> {
      // Prepared (named) statements: parsed once per connection, typed by the server, so an
      // object passed for a jsonb parameter is serialised as JSON and a string for a
      // timestamptz parameter as a timestamp. Inside a transaction, its own connection.
      const target = client !== root ? client : opts.planEach ? pools.planned() : opts.planOnce ? pools.generic() : client;
      const rows = await target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      return rows as unknown as T[];
    },
    async exec(text: string): Promise<void> {
      // No parameters and no preparing: the simple protocol, which runs several statements.
      await client.unsafe(text);
    },
    async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
      if (client !== root) return fn(driver);
      const result = await root.begin((tx) => fn(wrap(tx, pools)));
      return result as T;
    },
    async close(): Promise<void> {
      if (client === root) await pools.end();
    },
  };
  return driver;
}
