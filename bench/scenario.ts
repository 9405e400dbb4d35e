/**
 * What a benchmark scenario is, and the context the runner gives it.
 *
 * A scenario prepares a target (starting what it needs through shared
 * resources) and returns the request wrk should repeat. Adding a scenario
 * means adding one object to the list in `scenarios.ts`.
 */

/**
 * A performance target, as bench/README.md states it: p50 at most `maxP50Ms`, p99 at most `maxP99Ms`, at
 * least `minRequestsPerSecond`, at least `minRatio` times the baseline's requests/s of the same run.
 */
export interface Goal {
  /** The target as stated, e.g. "search p99 ≤ 25 ms at 100k topics". */
  text: string;
  maxP50Ms?: number;
  maxP99Ms?: number;
  minRequestsPerSecond?: number;
  /** Requests/s at least this fraction of the baseline's (the bare `Bun.serve`) in the same run. */
  minRatio?: number;
}

/** One HTTP request that wrk repeats. */
export interface Target {
  url: string;
  /** Default GET. */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  /** The request body, sent as is (set its `content-type` in `headers`). */
  body?: string;
  /**
   * A header whose value is new on every request (`<run>-<thread>-<n>`), e.g. a session id the
   * server keeps per-session state by: each request is then a first call of its own session.
   * Built by wrk-unique.lua (a Lua call per request, so only for scenarios that need it).
   */
  uniqueHeader?: string;
  /**
   * Bodies sent in turn, one per request (wrk-bodies.lua), instead of `body`: each request acts on
   * something else (a record not yet unlocked, say). The measurement goes on from where the
   * warm-up stopped, and a run that sends more requests than there are bodies says so (a WARNING:
   * the requests beyond were repeats).
   */
  bodies?: string[];
}

export interface Scenario {
  /** The row label in the results table. */
  name: string;
  /** Marks the scenario every ratio is computed against. */
  baseline?: boolean;
  /** A target the result is compared with, printed after the table (never asserted). */
  goal?: Goal;
  /**
   * Open connections for this scenario instead of BENCH_CONNECTIONS (at most that many), for a
   * target so slow that the usual number would only measure timeouts; the name should say so.
   */
  connections?: number;
  /**
   * BENCH_ONLY words that select this scenario although its name does not contain them, e.g. a
   * target whose benchmark command filters by other words.
   */
  selectedBy?: readonly string[];
  /** Starts (or reuses) what the target needs and returns the request to load. */
  prepare(ctx: BenchContext): Promise<Target>;
}

/** A started thing (process, database, dataset) and how to end it. */
export interface Resource<T> {
  value: T;
  stop(): Promise<void>;
}

export interface BenchContext {
  /**
   * Returns the resource under `key`, starting it with `start` on first use.
   * Resources are shared between scenarios and stopped at the end of the run,
   * in reverse order of start (a server before the database it uses).
   */
  use<T>(key: string, start: () => Promise<Resource<T>>): Promise<T>;
}

/** The runner's implementation of `BenchContext`. */
export class ResourcePool implements BenchContext {
  readonly #pending = new Map<string, Promise<unknown>>();
  readonly #started: { key: string; stop: () => Promise<void> }[] = [];

  use<T>(key: string, start: () => Promise<Resource<T>>): Promise<T> {
    let pending = this.#pending.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = start().then((resource) => {
        // Registered once started, so dependencies started inside `start` stop after it.
        this.#started.push({ key, stop: resource.stop });
        return resource.value;
      });
      this.#pending.set(key, pending);
    }
    return pending;
  }

  /**
   * Stops every started resource, newest first; never throws, returns the
   * failures. Starts still in flight are awaited first (at most `waitMs`), so
   * that what they start is stopped too.
   */
  async close(waitMs = 35_000): Promise<Error[]> {
    const inFlight = Promise.allSettled([...this.#pending.values()]);
    await Promise.race([inFlight, Bun.sleep(waitMs)]);
    const failures: Error[] = [];
    for (const { key, stop } of this.#started.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        failures.push(new Error(`Cannot stop ${key}: ${(error as Error).message}`));
      }
    }
    this.#pending.clear();
    return failures;
  }
}
