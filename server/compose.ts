import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { stripeBillingProvider } from "../adapters/stripe/billing-provider.ts";
import { planLimitsGate } from "../core/billing/mod.ts";
import { createSecretBox, type RateCounter } from "../core/access/mod.ts";
import type { EventBus } from "../core/events/mod.ts";
import { codeContextHooks } from "../core/code-context/mod.ts";
import { systemClock } from "../core/kernel/mod.ts";
import type { ComposedDeps, RunJob, Stores } from "../core/mod.ts";
import { withAuthCache } from "../adapters/cache/cached-stores.ts";
import { type AuthCacheL2, noAuthCacheL2 } from "../adapters/cache/auth-cache-l2.ts";
import { fanoutBus } from "../adapters/cache/fanout-bus.ts";
import { createLocalInvalidationBus, type InvalidationBus } from "../adapters/cache/invalidation-bus.ts";
import { createMemoryEventBus } from "../adapters/memory/event-bus.ts";
import { createMemoryRateCounter } from "../adapters/memory/rate-counter.ts";
import { openPgliteStores, openPostgresStores } from "../adapters/postgres/mod.ts";
import type { TopicReadCacheLimits } from "../core/topics/mod.ts";
import { createPostgresInvalidationBus } from "../adapters/postgres/notify-bus.ts";
import { createGitCodeHost } from "../adapters/git/code-host.ts";
import { systemResolver } from "../adapters/dns/system-resolver.ts";
import { picomatchMatcher } from "../adapters/glob/picomatch-matcher.ts";
import { createFileBlogSource } from "../adapters/blog-files/source.ts";
import { createOutboxMailer, createSmtpMailer } from "../adapters/mail/nodemailer.ts";
import { type Mailer, mailHooks } from "../core/mail/mod.ts";
import { radarSweep } from "../core/radar/mod.ts";
import { sweepUnlockHolds } from "../core/contacts/mod.ts";
import { billingSweep } from "../core/offers/mod.ts";
import { openJobQueue } from "./job-queue.ts";
import { readBuildInfo } from "./build-info.ts";
import type { Config } from "./config.ts";
import { createOidcProvider } from "../adapters/oidc/oauth4webapi-provider.ts";
import type { ServerDeps } from "./deps.ts";
import type { Logger } from "./http/logger.ts";
import { resolvePlatformKey } from "./platform-key.ts";
import { createProspects } from "./prospects.ts";
import { resolveSecret } from "./secret.ts";
import { type Dependency, readinessProbe } from "./readiness.ts";

/**
 * How often a consuming process looks for radar runs and monitors whose job was lost, contracts
 * whose next period started, accepted offers whose effects a crash left pending, and webhook
 * deliveries left unfinished.
 */
const SWEEP_MS = 60_000;

/**
 * What a consuming process runs, given by its entry point (workers/consumer.ts): the job runner and
 * the webhook inbox's recovery sweep. Compose receives it, so the server never imports workers.
 */
export interface JobConsumer {
  runner(deps: () => ComposedDeps): RunJob;
  sweepWebhooks(deps: ComposedDeps, log: (msg: string, fields: Record<string, unknown>) => void): Promise<unknown>;
}

export interface Composed {
  deps: ServerDeps;
  /** a description of the primary store for the start-up banner */
  storeLabel: string;
  /**
   * Stops taking background jobs (and sweeping); the running ones get `graceMs` to finish, then
   * are handed back to a shared queue (an in-process one keeps them in its journal).
   */
  stopJobs(graceMs: number): Promise<void>;
  /** Closes everything: the queue, Redis, the buses, mail, the store's pools. */
  close(): Promise<void>;
}

/**
 * Builds the server's dependencies from configuration: the primary store (embedded PGlite,
 * PostgreSQL or MongoDB), the authentication cache and how its invalidations reach other
 * instances, the event bus and the rate counter (in-process, or Redis with REDIS_URL).
 */
export async function compose(
  config: Config,
  logger: Logger,
  opts: { shutdown?: AbortSignal; consumer?: JobConsumer } = {},
): Promise<Composed> {
  if (config.workers && !opts.consumer) throw new Error("Cannot consume jobs: compose was given no job consumer (workers/consumer.ts)");
  const secret = resolveSecret(config);
  const platform = resolvePlatformKey(config);
  for (const root of config.codeHostLocalRoots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`Invalid CODE_HOST_LOCAL_ROOTS: ${root} is not a directory`);
  }
  if (config.workspaceBootstrap === "operator" && !platform.key) {
    throw new Error("WORKSPACE_BOOTSTRAP=operator needs PLATFORM_ADMIN_KEY: without it nobody could create a workspace");
  }
  if (platform.file) logger.log("info", "platform operator key in file", { file: resolve(platform.file) });
  else if (!platform.key) logger.log("info", "platform operator surface off: PLATFORM_ADMIN_KEY is not set");
  const radar = config.radarProvider;
  logger.log(
    "info",
    "radar prospect directory",
    radar.kind === "pdl" ? { provider: "pdl", base_url: radar.baseUrl } : { provider: "sample" },
  );

  let inner: Stores;
  let storeLabel: string;
  if (config.mongoUrl) {
    const { openMongoStores } = await import("../adapters/mongo/mod.ts");
    inner = await openMongoStores(config.mongoUrl, { clientOptions: { maxPoolSize: config.dbPoolSize } });
    storeLabel = "mongodb";
  } else if (config.databaseUrl) {
    inner = await openPostgresStores(config.databaseUrl, {
      max: config.dbPoolSize,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      topicReadCache: topicCache(config),
    });
    storeLabel = "postgres";
  } else {
    inner = await openPgliteStores(join(resolve(config.dataDir), "pglite"), { topicReadCache: topicCache(config) });
    storeLabel = `embedded (${resolve(config.dataDir)})`;
  }

  // Without Redis: everything in-process, PostgreSQL NOTIFY for cross-instance invalidation.
  // With Redis: shared rate counters, event fan-out, a shared level-2 auth cache, and Redis pub/sub
  // for invalidation (alongside NOTIFY when on PostgreSQL, so either one suffices).
  const buses: InvalidationBus[] = [];
  let events: EventBus = createMemoryEventBus();
  let counter: RateCounter = createMemoryRateCounter();
  let l2: AuthCacheL2 = noAuthCacheL2;
  let closeRedis = async () => {};
  let pingRedis: (() => Promise<unknown>) | null = null;
  if (config.databaseUrl) {
    const bounds = { statementTimeoutMs: config.dbStatementTimeoutMs, connectTimeoutMs: config.dbConnectTimeoutMs };
    buses.push(await createPostgresInvalidationBus(config.databaseUrl, bounds));
  }
  if (config.redisUrl) {
    const { openRedisAdapters } = await import("../adapters/redis/mod.ts");
    const redis = await openRedisAdapters(config.redisUrl, { logger });
    events = redis.events;
    counter = redis.rateCounter;
    l2 = redis.authCacheL2;
    buses.push(redis.invalidationBus);
    closeRedis = () => redis.close();
    pingRedis = () => redis.connection.run("readiness ping", (c) => c.ping(), 1_000);
  }
  const bus = buses.length === 0 ? createLocalInvalidationBus() : buses.length === 1 ? buses[0]! : fanoutBus(buses);
  if (config.mongoUrl && !config.redisUrl && config.authCacheTtlMs > 0) {
    // MongoDB offers no notification channel we can rely on (FerretDB has no change streams).
    logger.log(
      "warn",
      "MONGO_URL without REDIS_URL: a key revoked through another instance is honoured here only after AUTH_CACHE_TTL_MS; run several instances with REDIS_URL",
      {
        auth_cache_ttl_ms: config.authCacheTtlMs,
      },
    );
  }

  const stores = config.authCacheTtlMs === 0 ? inner : withAuthCache(inner, bus, { ttlMs: config.authCacheTtlMs, maxEntries: 10_000 }, l2);
  // Code context: repos read with git, anchors matched with picomatch, file indexes refreshed by
  // background jobs.
  // Local repos only under CODE_HOST_LOCAL_ROOTS (never DATA_DIR or the clones); remote hosts
  // on public addresses only unless CODE_HOST_ALLOW_PRIVATE (ADR 052).
  const codeHost = createGitCodeHost({
    cacheDir: config.gitCacheDir ?? join(resolve(config.dataDir), "git-cache"),
    localRoots: config.codeHostLocalRoots,
    dataDir: resolve(config.dataDir),
    allowPrivate: config.codeHostAllowPrivate,
    resolver: systemResolver(),
  });
  logger.log("info", "code host", { local_roots: config.codeHostLocalRoots, allow_private: config.codeHostAllowPrivate });
  // Background jobs: BullMQ when several processes share them, else in-process over the store's
  // journal. This process consumes unless WORKERS=off (then `npm run worker` processes do).
  const { queue: jobs, label: queueLabel } = await openJobQueue(config, logger, inner.jobJournal);
  logger.log("info", "job queue", { queue: queueLabel, consumer: config.workers });
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let holdSweeper: ReturnType<typeof setInterval> | undefined;
  if (config.workers) {
    const consumer = opts.consumer!;
    jobs.consume(consumer.runner(() => deps.core));
    // Radar and billing work whose job was lost (a worker gone with it) or never queued (a crash
    // before the enqueue), and webhook deliveries a crash or a failure left unfinished
    // (docs/decisions/042-webhook-inbox.md), are found again: at start, then each minute.
    const sweep = () => {
      void radarSweep(deps.core).catch((e) => logger.log("warn", "radar sweep failed", { error: String(e) }));
      void billingSweep(deps.core).catch((e) => logger.log("warn", "billing sweep failed", { error: String(e) }));
      void consumer.sweepWebhooks(deps.core, (msg, fields) => logger.log("warn", msg, fields))
        .catch((e) => logger.log("warn", "webhook sweep failed", { error: String(e) }));
    };
    (setTimeout(sweep, 1_000) as { unref?: () => void }).unref?.();
    sweeper = setInterval(sweep, SWEEP_MS);
    (sweeper as { unref?: () => void }).unref?.();
    // Contact unlocks' holds whose request died between its two writes (ADR 055): resolved within
    // RADAR_UNLOCK_LEASE_MS + RADAR_UNLOCK_SWEEP_MS of the hold, one sweep at a time per process.
    let sweepingHolds = false;
    const sweepHolds = () => {
      if (sweepingHolds) return;
      sweepingHolds = true;
      void sweepUnlockHolds(deps.core)
        .then((r) => r.resolved > 0 && logger.log("info", "unlock holds resolved by the sweep", { ...r }))
        .catch((e) => logger.log("warn", "unlock hold sweep failed", { error: String(e) }))
        .finally(() => (sweepingHolds = false));
    };
    (setTimeout(sweepHolds, 1_000) as { unref?: () => void }).unref?.();
    holdSweeper = setInterval(sweepHolds, config.radarUnlockSweepMs);
    (holdSweeper as { unref?: () => void }).unref?.();
  }

  // Mail: SMTP with SMTP_URL and MAIL_FROM, else `.eml` files in DATA_DIR/outbox (no network).
  let mailer: Mailer;
  let closeMail = () => {};
  if (config.smtp) {
    const smtp = createSmtpMailer(config.smtp.url, config.smtp.from);
    mailer = smtp;
    closeMail = () => smtp.close();
    logger.log("info", "mail over SMTP", { host: new URL(config.smtp.url).host });
  } else {
    const outbox = join(resolve(config.dataDir), "outbox");
    mailer = createOutboxMailer(outbox, config.mailFrom ?? undefined);
    logger.log("info", "mail kept in the outbox (set SMTP_URL and MAIL_FROM to send it)", { dir: outbox });
  }
  // Links in mail need an origin without a request: PUBLIC_URL, else this server's own address.
  const mailOrigin = config.publicUrl ?? `http://localhost:${config.port}`;

  // Readiness: the primary store is required; Redis and the queue are reported (ADR 054).
  const dependencies: Dependency[] = [
    { name: "database", required: true, check: async () => (await inner.status()).ok },
    ...(pingRedis ? [{ name: "redis", required: false, check: pingRedis }] : []),
    { name: "queue", required: false, check: () => jobs.check() },
  ];
  const readiness = readinessProbe(dependencies, {
    stopping: () => opts.shutdown?.aborted ?? false,
    onChange: (name, status, error) =>
      logger.log(status === "down" ? "warn" : "info", status === "down" ? "dependency down" : "dependency back", {
        dependency: name,
        ...(error ? { error } : {}),
      }),
  });

  const stopJobs = async (graceMs: number) => {
    clearInterval(sweeper);
    clearInterval(holdSweeper);
    await jobs.close(graceMs);
  };
  // Closed in this order on shutdown: what uses the connections first, the store last.
  const closers: Array<[string, () => Promise<void>]> = [
    ["job queue", () => stopJobs(0)],
    ["rate counter", () => counter.close()],
    ["event bus", () => events.close()],
    ["invalidation bus", () => bus.close()],
    ["redis", closeRedis],
    ["mail", async () => closeMail()],
    ["store", () => stores.close()],
  ];

  const windowMs = config.rateLimitWindowMs;
  const deps: ServerDeps = {
    core: {
      stores,
      clock: systemClock,
      secretBox: await createSecretBox(secret),
      events,
      codeHost,
      prospects: createProspects(config.radarProvider),
      paths: picomatchMatcher,
      jobs,
      radarPrices: config.radarPrices,
      radarRunLeaseMs: config.jobLeaseMs,
      radarUnlockLeaseMs: config.radarUnlockLeaseMs,
      capacity: planLimitsGate(stores.planUsage, config.planLimits, stores.contracts),
      ...(config.stripe ? { billingProvider: stripeBillingProvider(config.stripe) } : {}),
      ...codeContextHooks,
      mail: { mailer, publicUrl: mailOrigin, secret },
      ...mailHooks,
    },
    logger,
    config: {
      bodyLimitBytes: config.bodyLimitBytes,
      importLimitBytes: config.importLimitBytes,
      corsOrigins: config.corsOrigins,
      codeHostWebhookSecret: config.codeHostWebhookSecret,
      radarWebhookSecret: config.radarWebhookSecret,
      platformAdminKey: platform.key,
      radarPrices: config.radarPrices,
      publicUrl: config.publicUrl,
      identityWebhookSecret: config.identityWebhookSecret,
      supportWebhookSecret: config.supportWebhookSecret,
      billingWebhookSecret: config.billingWebhookSecret,
      secretKey: secret,
      workspaceBootstrap: config.workspaceBootstrap,
      importMaxRows: config.importMaxRows,
    },
    oidc: config.oidc ? createOidcProvider(config.oidc) : null,
    build: readBuildInfo(),
    blog: createFileBlogSource(resolve(config.blogDir), (msg, fields) => logger.log("warn", msg, fields)),
    readiness,
    rateLimits: {
      counter,
      perKey: config.rateLimitPerKey === 0 ? null : { limit: config.rateLimitPerKey, windowMs },
      perIp: config.rateLimitPerIp === 0 ? null : { limit: config.rateLimitPerIp, windowMs },
      trustProxy: config.trustProxy,
    },
  };
  return {
    deps,
    storeLabel,
    stopJobs,
    async close() {
      for (const [name, close] of closers) {
        const started = performance.now();
        await close().catch((e) => logger.log("warn", `closing the ${name} failed`, { error: String(e) }));
        logger.log("debug", `closed the ${name}`, { duration_ms: Math.round(performance.now() - started) });
      }
    },
  };
}

/** TOPIC_CACHE_MB as the cache's bound: kept characters (two bytes each, as JavaScript holds them). */
function topicCache(config: Config): TopicReadCacheLimits | false {
  return config.topicCacheMb === 0 ? false : { maxChars: config.topicCacheMb * 500_000 };
}
