import { delimiter, isAbsolute } from "node:path";
import { parsePrices, type PriceTable } from "../core/contacts/mod.ts";
import { PLAN_LIMITS_MODES, type PlanLimitsMode } from "../core/billing/mod.ts";
import { standardWebhookKey } from "../core/webhooks/mod.ts";
import type { LogLevel } from "./http/logger.ts";
import { parsePublicUrl } from "./http/public-origin.ts";

/** Everything the server reads from its environment, parsed and checked once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  mongoUrl: string | null;
  redisUrl: string | null;
  secretKey: string | null;
  corsOrigins: string[];
  bodyLimitBytes: number;
  /** IMPORT_LIMIT_BYTES: the largest archive an import takes (413 beyond). */
  importLimitBytes: number;
  logLevel: LogLevel;
  dbPoolSize: number;
  /** DB_STATEMENT_TIMEOUT_MS: how long a PostgreSQL statement may run, and a request wait for one (ADR 054). */
  dbStatementTimeoutMs: number;
  /** DB_CONNECT_TIMEOUT_MS: how long opening a PostgreSQL connection may take (ADR 054). */
  dbConnectTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: from SIGTERM or SIGINT to exit, in-flight requests and held jobs included (ADR 054). */
  shutdownTimeoutMs: number;
  /** TOPIC_CACHE_MB: memory for kept tag pages and searches on PostgreSQL and PGlite (ADR 047); 0: none. */
  topicCacheMb: number;
  /** 0 disables the in-process authentication cache. */
  authCacheTtlMs: number;
  /** requests per window per API key; 0 turns per-key limiting (and its counting) off */
  rateLimitPerKey: number;
  /** unauthenticated bootstrap requests per window per client address; 0 turns it off */
  rateLimitPerIp: number;
  rateLimitWindowMs: number;
  trustProxy: boolean;
  /** PUBLIC_URL: the external origin (an http(s) origin, checked at start-up); null: each request's own. */
  publicUrl: string | null;
  /** Secret of the code-host webhook's signatures; null leaves `POST /webhooks/code-host` off (404). */
  codeHostWebhookSecret: string | null;
  /** RADAR_WEBHOOK_SECRET (`whsec_<base64>`, Standard Webhooks); null leaves `POST /webhooks/radar/monitor` off (404). */
  radarWebhookSecret: string | null;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (all three or none): the dashboard's sign-in; null: none (API-key consent). */
  oidc: OidcConfig | null;
  /** IDENTITY_WEBHOOK_SECRET (`whsec_<base64>`, Standard Webhooks); null leaves `POST /webhooks/identity` off (404). */
  identityWebhookSecret: string | null;
  /** SUPPORT_WEBHOOK_SECRET (Intercom's app client secret: `X-Hub-Signature`, HMAC-SHA1); null leaves `/webhooks/support` off (404). */
  supportWebhookSecret: string | null;
  /** CODE_HOST_LOCAL_ROOTS: the absolute directories local paths and file:// URLs may be read under; empty: none. */
  codeHostLocalRoots: string[];
  /** CODE_HOST_ALLOW_PRIVATE: remote repos may be on private, loopback and other non-public addresses. */
  codeHostAllowPrivate: boolean;
  /** WORKSPACE_BOOTSTRAP: `open` (anyone may create a workspace) or `operator` (only the platform operator key). */
  workspaceBootstrap: WorkspaceBootstrap;
  /** Where bare clones of remote repos are kept (default `<DATA_DIR>/git-cache`). */
  gitCacheDir: string | null;
  /** PLATFORM_ADMIN_KEY as set (checked, or generated when embedded, by platform-key.ts). */
  platformAdminKey: string | null;
  /** RADAR_PRICES over the default prices; an invalid table stops the start. */
  radarPrices: PriceTable;
  /** Where radar finds prospects: RADAR_PROVIDER (docs/decisions/022-prospect-directory.md). */
  radarProvider: RadarProviderConfig;
  /** WORKERS: whether this server consumes background jobs (off: `npm run worker` processes do). */
  workers: boolean;
  /** JOB_LEASE_MS: how long a consumer owns a job (and a radar run) before another may take it over. */
  jobLeaseMs: number;
  /** RADAR_UNLOCK_LEASE_MS: how long a contact unlock's request owns its hold before the sweep may resolve it (ADR 055). */
  radarUnlockLeaseMs: number;
  /** RADAR_UNLOCK_SWEEP_MS: how often a consuming process resolves the holds of unlocks whose lease ended. */
  radarUnlockSweepMs: number;
  /** BLOG_DIR: the public blog's Markdown files (default `content/blog`). */
  blogDir: string;
  /** SMTP_URL and MAIL_FROM: mail over SMTP (nodemailer); null: `.eml` files in `DATA_DIR/outbox/`. */
  smtp: { url: string; from: string } | null;
  /** MAIL_FROM as set (also the outbox's `From`); null: a placeholder. */
  mailFrom: string | null;
  /** PLAN_LIMITS: `enforce` refuses creates past the plan's limits (402); `off` (default) only counts. */
  planLimits: PlanLimitsMode;
  /** IMPORT_MAX_ROWS: most rows of one records import, all or nothing (413 past it). */
  importMaxRows: number;
  /** STRIPE_SECRET_KEY and STRIPE_API_BASE: the billing provider; null: none (checkout and portal 503). */
  stripe: { secretKey: string; apiBase: string | null } | null;
  /** BILLING_WEBHOOK_SECRET (Stripe's `whsec_…` signing secret); null leaves `POST /webhooks/billing` off (404). */
  billingWebhookSecret: string | null;
}

export const WORKSPACE_BOOTSTRAP_MODES = ["open", "operator"] as const;
export type WorkspaceBootstrap = (typeof WORKSPACE_BOOTSTRAP_MODES)[number];

function workspaceBootstrap(raw: string | undefined): WorkspaceBootstrap {
  const mode = raw || "open";
  if (!(WORKSPACE_BOOTSTRAP_MODES as readonly string[]).includes(mode)) {
    throw new Error(`Invalid WORKSPACE_BOOTSTRAP: expected one of ${WORKSPACE_BOOTSTRAP_MODES.join(", ")}, got "${mode}"`);
  }
  return mode as WorkspaceBootstrap;
}

/**
 * CODE_HOST_LOCAL_ROOTS: absolute directories separated by the OS path delimiter (`:`; `;` on
 * Windows), as PATH and GIT_CEILING_DIRECTORIES are, so a directory name may hold a comma. The
 * setting it replaced, CODE_HOST_LOCAL_PATHS (which let a workspace read any path of the disk),
 * stops the start rather than being quietly ignored.
 */
function localRoots(env: Record<string, string | undefined>): string[] {
  if (env.CODE_HOST_LOCAL_PATHS !== undefined && env.CODE_HOST_LOCAL_PATHS !== "") {
    throw new Error(
      "CODE_HOST_LOCAL_PATHS is no longer read: it is replaced by CODE_HOST_LOCAL_ROOTS, the directories local repos may be read under (e.g. CODE_HOST_LOCAL_ROOTS=/srv/git). Unset CODE_HOST_LOCAL_PATHS",
    );
  }
  const roots = (env.CODE_HOST_LOCAL_ROOTS ?? "").split(delimiter).map((s) => s.trim()).filter(Boolean);
  for (const root of roots) {
    if (!isAbsolute(root)) {
      throw new Error(`Invalid CODE_HOST_LOCAL_ROOTS: expected absolute directories separated by "${delimiter}", got "${root}"`);
    }
  }
  return roots;
}

/** STRIPE_SECRET_KEY enables Stripe; STRIPE_API_BASE (an http(s) origin) points it elsewhere, e.g. at stripe-mock. */
function stripeConfig(env: Record<string, string | undefined>): Config["stripe"] {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const apiBase = env.STRIPE_API_BASE?.trim() || null;
  if (!secretKey) {
    if (apiBase) throw new Error("STRIPE_API_BASE is set without STRIPE_SECRET_KEY: set both, or neither");
    return null;
  }
  if (apiBase) {
    let url: URL;
    try {
      url = new URL(apiBase);
    } catch {
      throw new Error(`Invalid STRIPE_API_BASE: expected an http(s) URL, got "${apiBase}"`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("Invalid STRIPE_API_BASE: expected http or https");
  }
  return { secretKey, apiBase };
}

function planLimitsMode(raw: string | undefined): PlanLimitsMode {
  const mode = raw || "off";
  if (!(PLAN_LIMITS_MODES as readonly string[]).includes(mode)) {
    throw new Error(`Invalid PLAN_LIMITS: expected one of ${PLAN_LIMITS_MODES.join(", ")}`);
  }
  return mode as PlanLimitsMode;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The OpenID Connect provider: all three settings or none (a partial set stops the start). The
 * issuer is an https URL, or http on a loopback host (a provider on this machine).
 */
function oidcConfig(env: Record<string, string | undefined>): OidcConfig | null {
  const names = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;
  const values = names.map((n) => env[n]?.trim() || null);
  if (values.every((v) => v === null)) return null;
  const missing = names.filter((_, i) => values[i] === null);
  if (missing.length > 0) {
    throw new Error(`OpenID Connect needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together: ${missing.join(", ")} unset`);
  }
  const [issuer, clientId, clientSecret] = values as [string, string, string];
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`Invalid OIDC_ISSUER: not an absolute URL: "${issuer}"`);
  }
  const loopback = url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !loopback) {
    throw new Error(`Invalid OIDC_ISSUER: expected an https URL (http only on a loopback host), got "${issuer}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`Invalid OIDC_ISSUER: expected the issuer identifier, with no query, fragment or user, got "${issuer}"`);
  }
  return { issuer, clientId, clientSecret };
}

/**
 * SMTP_URL (`smtp://` or `smtps://`, credentials in the URL) with MAIL_FROM. One without the other
 * stops the start: a server that silently kept mail in its outbox would look like it sent it.
 */
function smtp(env: Record<string, string | undefined>): { url: string; from: string } | null {
  const url = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (!url) return null;
  if (!from) throw new Error('SMTP_URL needs MAIL_FROM: set it to the sender address, e.g. "Acme Knowledge <kb@acme.example>"');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("Invalid SMTP_URL: not a URL");
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    throw new Error(`Invalid SMTP_URL: expected smtp:// or smtps://, got "${parsed.protocol}"`);
  }
  return { url, from };
}

/** `sample` (the default, no network) or People Data Labs with its key. */
export type RadarProviderConfig = { kind: "sample" } | { kind: "pdl"; apiKey: string; baseUrl: string };

const PDL_BASE_URL = "https://api.peopledatalabs.com";

/**
 * `RADAR_PROVIDER` (`sample` or `pdl`), and for `pdl` its `PDL_API_KEY` (required: without it the
 * start stops here, not at the first search) and `PDL_BASE_URL` (an http(s) URL).
 */
function radarProvider(env: Record<string, string | undefined>): RadarProviderConfig {
  const kind = env.RADAR_PROVIDER || "sample";
  if (kind === "sample") return { kind };
  if (kind !== "pdl") throw new Error(`Invalid RADAR_PROVIDER: expected sample or pdl, got "${kind}"`);
  const apiKey = env.PDL_API_KEY?.trim();
  if (!apiKey) {
    throw new Error("RADAR_PROVIDER=pdl needs PDL_API_KEY: set it to your People Data Labs API key, or use RADAR_PROVIDER=sample");
  }
  const baseUrl = env.PDL_BASE_URL || PDL_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`Invalid PDL_BASE_URL: not a URL: "${baseUrl}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`Invalid PDL_BASE_URL: expected an http(s) URL, got "${baseUrl}"`);
  }
  return { kind, apiKey, baseUrl };
}

const LEVELS = ["debug", "info", "warn", "error", "silent"];

function int(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`Invalid ${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function bool(env: Record<string, string | undefined>, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (raw !== "true" && raw !== "false") throw new Error(`Invalid ${name}: expected true or false, got "${raw}"`);
  return raw === "true";
}

/**
 * `WORKERS=off` leaves a server's jobs to `npm run worker` processes, which needs a queue they
 * share: BullMQ on Redis (REDIS_URL) or on PostgreSQL (DATABASE_URL). With the in-process queue
 * (embedded, or MongoDB without Redis) `off` would leave the jobs to nobody: refused rather than
 * ignored (docs/decisions/024-job-queues.md).
 */
function workersOn(env: Record<string, string | undefined>): boolean {
  const raw = env.WORKERS;
  if (raw === undefined || raw === "" || raw === "on") return true;
  if (raw !== "off") throw new Error(`Invalid WORKERS: expected on or off, got "${raw}"`);
  if (!env.REDIS_URL && !env.DATABASE_URL) {
    throw new Error(
      "WORKERS=off needs a job queue other processes share: set REDIS_URL or DATABASE_URL (BullMQ), or leave WORKERS unset so this server runs its jobs itself",
    );
  }
  return false;
}

/** A Standard Webhooks secret, checked at start-up so a typo does not turn every delivery into a 401. */
function standardWebhookSecret(raw: string | undefined, name: string): string | null {
  if (!raw) return null;
  if (!standardWebhookKey(raw)) throw new Error(`Invalid ${name}: expected whsec_ followed by base64`);
  return raw;
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  if (env.DATABASE_URL && env.MONGO_URL) {
    throw new Error("Both DATABASE_URL and MONGO_URL are set: choose one primary store (PostgreSQL or MongoDB)");
  }
  const logLevel = (env.LOG_LEVEL ?? "info") as LogLevel;
  if (!LEVELS.includes(logLevel)) throw new Error(`Invalid LOG_LEVEL: expected one of ${LEVELS.join(", ")}`);
  const oidc = oidcConfig(env);
  const identityWebhookSecret = standardWebhookSecret(env.IDENTITY_WEBHOOK_SECRET, "IDENTITY_WEBHOOK_SECRET");
  if (identityWebhookSecret && !oidc) {
    throw new Error("IDENTITY_WEBHOOK_SECRET needs the OIDC_* settings: its events name people by the provider's subject (OIDC_ISSUER)");
  }
  const server = Boolean(env.DATABASE_URL || env.MONGO_URL);
  return {
    port: int(env, "PORT", 3000, 0, 65535),
    // The embedded store is one person's server: reachable from this machine only unless HOST
    // says otherwise (as PocketBase). A database-backed server runs behind a load balancer or in
    // a container, where loopback would reach nobody.
    host: env.HOST || (server ? "0.0.0.0" : "127.0.0.1"),
    dataDir: env.DATA_DIR || "./data",
    databaseUrl: env.DATABASE_URL || null,
    mongoUrl: env.MONGO_URL || null,
    redisUrl: env.REDIS_URL || null,
    secretKey: env.SECRET_KEY || null,
    corsOrigins: (env.CORS_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 1024 * 1024, 1024, 64 * 1024 * 1024),
    importLimitBytes: int(env, "IMPORT_LIMIT_BYTES", 1024 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    logLevel,
    dbPoolSize: int(env, "DB_POOL_SIZE", 10, 1, 200),
    dbStatementTimeoutMs: int(env, "DB_STATEMENT_TIMEOUT_MS", 30_000, 100, 3_600_000),
    dbConnectTimeoutMs: int(env, "DB_CONNECT_TIMEOUT_MS", 5_000, 100, 120_000),
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 1_000, 600_000),
    topicCacheMb: int(env, "TOPIC_CACHE_MB", 32, 0, 4096),
    authCacheTtlMs: int(env, "AUTH_CACHE_TTL_MS", 30_000, 0, 3_600_000),
    rateLimitPerKey: int(env, "RATE_LIMIT_PER_KEY", 1200, 0, 1_000_000_000),
    rateLimitPerIp: int(env, "RATE_LIMIT_PER_IP", 30, 0, 1_000_000_000),
    rateLimitWindowMs: int(env, "RATE_LIMIT_WINDOW_MS", 60_000, 1000, 86_400_000),
    trustProxy: env.TRUST_PROXY === "true",
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    codeHostWebhookSecret: env.CODE_HOST_WEBHOOK_SECRET || null,
    radarWebhookSecret: standardWebhookSecret(env.RADAR_WEBHOOK_SECRET, "RADAR_WEBHOOK_SECRET"),
    oidc,
    identityWebhookSecret,
    supportWebhookSecret: env.SUPPORT_WEBHOOK_SECRET || null,
    codeHostLocalRoots: localRoots(env),
    codeHostAllowPrivate: bool(env, "CODE_HOST_ALLOW_PRIVATE") ?? false,
    workspaceBootstrap: workspaceBootstrap(env.WORKSPACE_BOOTSTRAP),
    gitCacheDir: env.GIT_CACHE_DIR || null,
    platformAdminKey: env.PLATFORM_ADMIN_KEY || null,
    radarPrices: parsePrices(env.RADAR_PRICES),
    radarProvider: radarProvider(env),
    workers: workersOn(env),
    jobLeaseMs: int(env, "JOB_LEASE_MS", 30_000, 1_000, 3_600_000),
    radarUnlockLeaseMs: int(env, "RADAR_UNLOCK_LEASE_MS", 60_000, 1_000, 3_600_000),
    radarUnlockSweepMs: int(env, "RADAR_UNLOCK_SWEEP_MS", 15_000, 100, 3_600_000),
    blogDir: env.BLOG_DIR || "content/blog",
    smtp: smtp(env),
    mailFrom: env.MAIL_FROM?.trim() || null,
    planLimits: planLimitsMode(env.PLAN_LIMITS),
    importMaxRows: int(env, "IMPORT_MAX_ROWS", 100_000, 1, 10_000_000),
    stripe: stripeConfig(env),
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET || null,
  };
}
