import { createSecretBox } from "../../core/access/secret-box.ts";
import { planLimitsGate, type PlanLimitsMode } from "../../core/billing/gate.ts";
import { codeContextHooks } from "../../core/code-context/hooks.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import type { Stores } from "../../core/stores.ts";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createMemoryRateCounter } from "../../adapters/memory/rate-counter.ts";
import type { EventBus } from "../../core/events/ports.ts";
import type { RateLimits } from "../../server/http/rate-limit.ts";
import { buildApp } from "../../server/app.ts";
import { createLogger } from "../../server/http/logger.ts";
import { createFileBlogSource } from "../../adapters/blog-files/source.ts";
import type { ServerDeps } from "../../server/deps.ts";

const BLOG_DIR = new URL("../../content/blog/", import.meta.url).pathname;

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  core: ComposedDeps;
  app: { handle(request: Request): Promise<Response> };
  logs: string[];
  call<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string>; root?: boolean },
  ): Promise<TestResponse<T>>;
  /** Creates a workspace through the public bootstrap and returns its slug and owner key. */
  bootstrap(slug: string, email?: string): Promise<{ slug: string; key: string; body: any }>;
}

export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

/**
 * The real app, built in-process as `main.ts` composes it (stores behind the authentication
 * cache) over the given stores, memory by default; requests go through app.handle.
 */
export async function makeTestApp(
  stores: Stores = withAuthCache(createMemoryStores(), createLocalInvalidationBus()),
  opts: {
    events?: EventBus;
    rateLimits?: Partial<RateLimits>;
    core?: Partial<ComposedDeps>;
    /** PLAN_LIMITS of the app (default `off`). */
    planLimits?: PlanLimitsMode;
    codeHostWebhookSecret?: string;
    radarWebhookSecret?: string;
    platformAdminKey?: string;
    publicUrl?: string;
    corsOrigins?: string[];
    /** The blog's directory; default the repository's `content/blog`. */
    blogDir?: string;
    /** The OpenID Connect provider of the sign-in (ServerDeps.oidc); unset, none. */
    oidc?: ServerDeps["oidc"];
    identityWebhookSecret?: string;
    supportWebhookSecret?: string;
    billingWebhookSecret?: string;
    /** WORKSPACE_BOOTSTRAP of the app (default `open`). */
    workspaceBootstrap?: "open" | "operator";
    /** IMPORT_LIMIT_BYTES of the app (default 1 GiB). */
    importLimitBytes?: number;
    /** More of the server's settings (e.g. IMPORT_MAX_ROWS as `importMaxRows`). */
    config?: Partial<ServerDeps["config"]>;
  } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const core: ComposedDeps = {
    stores,
    clock: systemClock,
    secretBox: await createSecretBox(TEST_SECRET),
    events: opts.events ?? createMemoryEventBus(),
    capacity: planLimitsGate(stores.planUsage, opts.planLimits ?? "off", stores.contracts),
    ...codeContextHooks,
    ...opts.core,
  };
  const app = buildApp({
    core,
    logger: createLogger("info", (l) => void logs.push(l)),
    config: {
      bodyLimitBytes: 64 * 1024,
      corsOrigins: opts.corsOrigins ?? ["https://app.example.com"],
      codeHostWebhookSecret: opts.codeHostWebhookSecret ?? null,
      radarWebhookSecret: opts.radarWebhookSecret ?? null,
      identityWebhookSecret: opts.identityWebhookSecret ?? null,
      supportWebhookSecret: opts.supportWebhookSecret ?? null,
      billingWebhookSecret: opts.billingWebhookSecret ?? null,
      platformAdminKey: opts.platformAdminKey ?? null,
      publicUrl: opts.publicUrl ?? null,
      secretKey: TEST_SECRET,
      workspaceBootstrap: opts.workspaceBootstrap ?? "open",
      ...(opts.importLimitBytes ? { importLimitBytes: opts.importLimitBytes } : {}),
      ...opts.config,
    },
    build: { api_version: "v1", version: "0.0.0-test", build: "test", commit: "test" },
    rateLimits: {
      counter: createMemoryRateCounter(),
      perKey: { limit: 100_000, windowMs: 60_000 },
      perIp: { limit: 100_000, windowMs: 60_000 },
      trustProxy: true,
      ...opts.rateLimits,
    },
    blog: createFileBlogSource(
      opts.blogDir ?? BLOG_DIR,
      (msg, fields) => void logs.push(JSON.stringify({ level: "warn", msg, ...fields })),
    ),
    oidc: opts.oidc ?? null,
  });
  const call: TestApp["call"] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers["x-api-key"] = opts.key;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    if (body !== undefined) headers["content-length"] ??= String(new TextEncoder().encode(body).length);
    const url = opts.root ? `http://localhost${path}` : `http://localhost/api/v1${path}`;
    const res = await app.handle(new Request(url, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    core,
    app,
    logs,
    call,
    async bootstrap(slug, email = `${slug}-owner@example.com`) {
      const res = await call("POST", "/workspaces", { body: { slug, owner_email: email } });
      if (res.status !== 201) throw new Error(`bootstrap failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { slug, key: res.body.api_key.key, body: res.body };
    },
  };
}
