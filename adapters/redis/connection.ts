import { createClient, ErrorReply, TimeoutError } from "redis";

/**
 * Redis is optional and holds nothing that cannot be rebuilt, so an outage must cost latency of
 * milliseconds, never a hung request. Every call on a request path goes through
 * `RedisConnection.run`: refused at once while the client is not connected (the offline queue is
 * disabled), and bounded by a short timeout while it is (a dead peer that has not closed the
 * socket yet).
 */
export class RedisUnavailableError extends Error {
  readonly code = "REDIS_UNAVAILABLE";
  /** Redis was connected but did not answer in time (as opposed to: not connected, or failed). */
  readonly timedOut: boolean;
  constructor(message: string, options?: { cause?: unknown; timedOut?: boolean }) {
    super(message, options);
    this.name = "RedisUnavailableError";
    this.timedOut = options?.timedOut ?? false;
  }
}

export type RedisClient = ReturnType<typeof createClient>;

/** Structurally the server's logger, so it can be passed as is. */
export interface RedisLogger {
  log(level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>): void;
}

export interface RedisConnectionOptions {
  /** Bound on one request-path call (one round trip, or a script and its fallback). Default 200 ms. */
  commandTimeoutMs?: number;
  /** How long `connect` waits for Redis at start-up before going on without it. Default 2,000 ms. */
  bootWaitMs?: number;
  /** `true`: `connect` throws when Redis is not reachable within `bootWaitMs`. Default false. */
  requireAtBoot?: boolean;
  /** Cap of the reconnect backoff (50 ms doubling, plus jitter). Default 5,000 ms. */
  maxReconnectDelayMs?: number;
  /** TCP connect timeout of one attempt. Default 1,000 ms. */
  connectTimeoutMs?: number;
  logger?: RedisLogger;
  /**
   * After `threshold` timeouts in a row (a peer that keeps the socket open but does not answer:
   * frozen, or a network black hole TCP takes minutes to notice), calls fail at once for `openMs`;
   * then one call probes again. Default 3 timeouts, 1,000 ms.
   */
  breaker?: { threshold: number; openMs: number };
  /** `CLIENT SETNAME` of the command client; the subscriber gets `<name>:sub`. Shows in `CLIENT LIST`. */
  name?: string;
}

type Hook = () => void;
export type MessageHandler = (message: string, channel: string) => void;

const consoleLogger: RedisLogger = {
  log(level, msg, fields) {
    const line = `${msg}${fields ? ` ${JSON.stringify(fields)}` : ""}`;
    if (level === "info") console.info(line);
    else console.warn(line);
  },
};

/** Rejects with `RedisUnavailableError` when `work` has not settled within `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new RedisUnavailableError(`Redis did not answer in time: ${what} took over ${ms} ms`, { timedOut: true })),
      ms,
    );
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

/**
 * Owns the two clients every Redis adapter shares: `client` for commands and `subscriber` for
 * pub/sub (a subscribed connection cannot run other commands). Both reconnect forever with capped
 * backoff. Subscriptions are declared here (`subscribe`/`unsubscribe`) rather than on the raw
 * client, so they are re-established on every reconnect even if a SUBSCRIBE was lost while the
 * server was away; `onResubscribed` hooks run once they are active again.
 */
export class RedisConnection {
  readonly client: RedisClient;
  readonly subscriber: RedisClient;
  readonly commandTimeoutMs: number;
  readonly logger: RedisLogger;

  private readyHooks = new Set<Hook>();
  private downHooks = new Set<Hook>();
  private resubscribedHooks = new Set<Hook>();
  /** channel → handlers this process wants; the truth that reconnects restore */
  private wanted = new Map<string, Set<MessageHandler>>();
  /** channel → the last subscribe/unsubscribe queued on it */
  private chains = new Map<string, Promise<void>>();
  private up = false;
  private closed = false;
  /** Counts the subscriber's connections; `restored` is the one whose subscriptions are all made. */
  private subscriberEpoch = 0;
  private restoredEpoch = -1;
  /** `settled()` calls waiting for the subscriber to be back (true) or for Redis to be gone (false). */
  private subscriberWaiters = new Set<(live: boolean) => void>();
  /** The longest a subscriber can take to come back: its longest backoff pause, one connect, a resubscribe. */
  private readonly subscriberReturnMs: number;
  private everReady = false;
  private readonly timed: RedisClient;
  private readonly breaker: { threshold: number; openMs: number };
  private timeoutsInARow = 0;
  private openUntil = 0;

  private constructor(url: string, opts: RedisConnectionOptions) {
    this.commandTimeoutMs = opts.commandTimeoutMs ?? 200;
    this.logger = opts.logger ?? consoleLogger;
    const maxDelay = opts.maxReconnectDelayMs ?? 5_000;
    this.breaker = opts.breaker ?? { threshold: 3, openMs: 1_000 };
    this.subscriberReturnMs = maxDelay + 50 + (opts.connectTimeoutMs ?? 1_000) + this.commandTimeoutMs * 5;
    this.client = createClient({
      url,
      name: opts.name,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: opts.connectTimeoutMs ?? 1_000,
        // Never gives up: Redis coming back must be picked up without a restart.
        reconnectStrategy: (retries) => Math.min(50 * 2 ** Math.min(retries, 16), maxDelay) + Math.floor(Math.random() * 50),
      },
    });
    this.subscriber = this.client.duplicate(opts.name ? { name: `${opts.name}:sub` } : {});
    this.timed = this.client.withCommandOptions({ timeout: this.commandTimeoutMs }) as RedisClient;

    // Without an 'error' listener node-redis would crash the process on the first failed reconnect.
    this.client.on("error", (e: unknown) => this.wentDown(e));
    this.client.on("ready", () => this.cameUp());
    this.client.on("end", () => this.wentDown(undefined));
    this.subscriber.on("error", () => {});
    this.subscriber.on("ready", () => void this.restoreSubscriptions(++this.subscriberEpoch));
  }

  /**
   * Creates the clients and starts connecting. Waits up to `bootWaitMs` for Redis; if it is not
   * there, logs a warning and returns anyway (unless `requireAtBoot`): every adapter fails soft
   * until the background reconnect succeeds. A malformed URL throws.
   */
  static async connect(url: string, opts: RedisConnectionOptions = {}): Promise<RedisConnection> {
    const conn = new RedisConnection(url, opts);
    const bootWaitMs = opts.bootWaitMs ?? 2_000;
    // node-redis' connect() resolves on the first success and retries until then: never await it
    // unbounded.
    const started = Promise.all([conn.client.connect(), conn.subscriber.connect()]).then(() => true);
    started.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ok = await Promise.race([
      started.catch(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), bootWaitMs))),
    ]);
    clearTimeout(timer);
    if (!ok) {
      const where = redactUrl(url);
      if (opts.requireAtBoot) {
        await conn.close();
        throw new RedisUnavailableError(`Cannot connect to Redis: no answer from ${where} within ${bootWaitMs} ms`);
      }
      conn.logger.log("warn", "Redis is unreachable at start-up: continuing without it and reconnecting in the background", {
        redis: where,
      });
    }
    return conn;
  }

  /** The command client is connected (adapters skip Redis entirely while it is not). */
  get isReady(): boolean {
    return !this.closed && this.client.isReady;
  }

  /** Runs `hook` each time the command client (re)connects. Returns a remover. */
  onReady(hook: Hook): () => void {
    this.readyHooks.add(hook);
    return () => this.readyHooks.delete(hook);
  }

  /** Runs `hook` each time a connected command client loses Redis. Returns a remover. */
  onDown(hook: Hook): () => void {
    this.downHooks.add(hook);
    return () => this.downHooks.delete(hook);
  }

  /** Runs `hook` each time the subscriber's subscriptions are active again after (re)connecting. */
  onResubscribed(hook: Hook): () => void {
    this.resubscribedHooks.add(hook);
    return () => this.resubscribedHooks.delete(hook);
  }

  /**
   * One bounded call on the command client. Throws `RedisUnavailableError` at once when not
   * connected, and after `timeoutMs` when Redis does not answer; a Redis error reply (`ErrorReply`)
   * passes through unchanged.
   */
  async run<T>(what: string, call: (client: RedisClient) => Promise<T>, timeoutMs = this.commandTimeoutMs): Promise<T> {
    if (!this.isReady) throw new RedisUnavailableError(`Redis is not connected: ${what} skipped`);
    if (this.openUntil > Date.now()) throw new RedisUnavailableError(`Redis is not answering in time: ${what} skipped`);
    const work = call(this.timed);
    try {
      const result = await withTimeout(work, timeoutMs, what);
      this.answered();
      return result;
    } catch (e) {
      work.catch(() => {});
      if (e instanceof ErrorReply) {
        this.answered();
        throw e;
      }
      const timedOut = (e instanceof RedisUnavailableError && e.timedOut) || e instanceof TimeoutError;
      if (timedOut) this.timedOut();
      if (e instanceof RedisUnavailableError) throw e;
      throw new RedisUnavailableError(`Redis call failed: ${what}: ${(e as Error)?.message ?? String(e)}`, { cause: e, timedOut });
    }
  }

  /**
   * Adds `handler` to `channel`. Resolves once Redis confirmed the subscription, or at once when
   * it is down (the subscription is then made on reconnect). Never throws.
   */
  subscribe(channel: string, handler: MessageHandler): Promise<void> {
    let set = this.wanted.get(channel);
    if (!set) this.wanted.set(channel, set = new Set());
    set.add(handler);
    return this.enqueue(channel, () => this.sync(channel, handler));
  }

  /** Removes `handler`; the channel is unsubscribed when it has no handler left. Never throws. */
  unsubscribe(channel: string, handler: MessageHandler): Promise<void> {
    const set = this.wanted.get(channel);
    if (set) {
      set.delete(handler);
      if (set.size === 0) this.wanted.delete(channel);
    }
    return this.enqueue(channel, () => this.sync(channel, handler));
  }

  /**
   * Resolves once every subscribe/unsubscribe asked for so far is in effect on the server, or at
   * once when Redis is unreachable (they are made on reconnect). "Unreachable" is the command
   * client's view: while it is connected but the subscriber is still reconnecting (each client
   * backs off on its own schedule, so after an outage one may be back seconds before the other),
   * a subscription asked for meanwhile is only made when the subscriber is back, so this waits for
   * that, bounded by the longest the subscriber can take.
   */
  async settled(): Promise<void> {
    for (;;) {
      while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
      if (this.closed || !this.client.isReady || this.subscriberLive) return;
      if (!(await this.subscriberBack())) return;
    }
  }

  /** The subscriber is connected and has made every subscription wanted when it (re)connected. */
  private get subscriberLive(): boolean {
    return this.subscriber.isReady && this.restoredEpoch === this.subscriberEpoch;
  }

  /** Resolves true when the subscriber is live again; false when Redis goes, on close, or after subscriberReturnMs. */
  private subscriberBack(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const done = (live: boolean) => {
        clearTimeout(timer);
        this.subscriberWaiters.delete(done);
        resolve(live);
      };
      const timer = setTimeout(() => done(false), this.subscriberReturnMs);
      this.subscriberWaiters.add(done);
    });
  }

  private wakeSubscriberWaiters(live: boolean): void {
    for (const w of [...this.subscriberWaiters]) w(live);
  }

  /** Closes both clients. Pending calls fail; hooks no longer run. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.readyHooks.clear();
    this.downHooks.clear();
    this.resubscribedHooks.clear();
    this.wakeSubscriberWaiters(false);
    await Promise.all([shut(this.client), shut(this.subscriber)]);
  }

  // ---- internals ----

  /**
   * Operations on one channel run one after the other: an UNSUBSCRIBE sent before the SUBSCRIBE
   * it undoes was confirmed would find nothing to remove in node-redis and leave the channel on.
   */
  private enqueue(channel: string, op: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(channel) ?? Promise.resolve()).then(op).catch(() => {});
    this.chains.set(channel, next);
    void next.then(() => {
      if (this.chains.get(channel) === next) this.chains.delete(channel);
    });
    return next;
  }

  /** Makes the subscriber's state for (`channel`, `handler`) match `wanted`. */
  private async sync(channel: string, handler: MessageHandler): Promise<void> {
    if (this.closed || !this.subscriber.isReady) return;
    const want = this.wanted.get(channel)?.has(handler) ?? false;
    const have = this.subscriber.getPubSubListeners("CHANNELS").get(channel)?.strings.has(handler) ?? false;
    if (want === have) return;
    const what = `${want ? "SUBSCRIBE" : "UNSUBSCRIBE"} ${channel}`;
    const work = want ? this.subscriber.subscribe(channel, handler) : this.subscriber.unsubscribe(channel, handler);
    await withTimeout(work, this.commandTimeoutMs * 5, what).catch(() => {});
  }

  /**
   * node-redis resubscribes what it knew on reconnect, but a SUBSCRIBE sent while the socket was
   * dying is dropped with it; so make the subscriber match `wanted`, then tell the hooks.
   */
  private async restoreSubscriptions(epoch: number): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const [channel, handlers] of this.wanted) {
      for (const h of handlers) pending.push(this.enqueue(channel, () => this.sync(channel, h)));
    }
    for (const [channel, listeners] of this.subscriber.getPubSubListeners("CHANNELS")) {
      for (const h of [...listeners.strings]) pending.push(this.enqueue(channel, () => this.sync(channel, h as MessageHandler)));
    }
    await Promise.all(pending);
    // Reconnected again meanwhile: that connection's own restore reports.
    if (this.closed || !this.subscriber.isReady || epoch !== this.subscriberEpoch) return;
    this.restoredEpoch = epoch;
    this.wakeSubscriberWaiters(true);
    for (const hook of this.resubscribedHooks) safely(hook);
  }

  private answered(): void {
    if (this.timeoutsInARow >= this.breaker.threshold) this.logger.log("info", "Redis answers in time again");
    this.timeoutsInARow = 0;
    this.openUntil = 0;
  }

  private timedOut(): void {
    this.timeoutsInARow++;
    if (this.timeoutsInARow < this.breaker.threshold) return;
    if (this.timeoutsInARow === this.breaker.threshold) {
      this.logger.log("warn", `Redis is not answering in time: skipping it, probing again every ${this.breaker.openMs} ms`);
    }
    this.openUntil = Date.now() + this.breaker.openMs;
  }

  private cameUp(): void {
    if (this.closed) return;
    const wasUp = this.up;
    this.up = true;
    this.timeoutsInARow = 0;
    this.openUntil = 0;
    if (this.everReady && !wasUp) this.logger.log("info", "Redis is reachable again");
    this.everReady = true;
    if (!wasUp) { for (const hook of this.readyHooks) safely(hook); }
  }

  private wentDown(error: unknown): void {
    // node-redis marks the socket not ready before it emits the error of a lost connection
    if (this.closed || !this.up || this.client.isReady) return;
    this.up = false;
    this.logger.log("warn", "Redis connection lost: continuing without it and reconnecting in the background", {
      error: error instanceof Error ? error.message : undefined,
    });
    for (const hook of this.downHooks) safely(hook);
    this.wakeSubscriberWaiters(false);
  }
}

function safely(hook: Hook): void {
  try {
    hook();
  } catch {
    // a failing hook must not stop the others
  }
}

async function shut(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  try {
    if (client.isReady) await withTimeout(client.close(), 1_000, "close");
    else client.destroy();
  } catch {
    try {
      client.destroy();
    } catch {
      // already closed
    }
  }
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable REDIS_URL)";
  }
}
