import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServerDeps } from "../../deps.ts";
import { DEPRECATIONS } from "../../http/deprecations.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { readinessProbe, servesTraffic } from "../../readiness.ts";

const Health = Type.Object({
  status: Type.Literal("ok"),
  uptime_s: Type.Number(),
});

const Check = Type.Object({
  status: Type.Union([Type.Literal("up"), Type.Literal("down")]),
  required: Type.Boolean({ description: "Whether the service is unavailable (503) while this dependency is down." }),
  latency_ms: Type.Number({ description: "How long the check took (at most its 2 s timeout)." }),
});

const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ready"), Type.Literal("degraded"), Type.Literal("unavailable"), Type.Literal("stopping")], {
    description:
      "`ready`: every dependency answers. `degraded` (still 200): one that is not required is down (Redis, or a shared job queue: requests keep working, those that queue work are refused with 503). `unavailable` (503): the primary store is down. `stopping` (503): the process is shutting down.",
  }),
  checks: Type.Record(Type.String(), Check, {
    description:
      "One entry per dependency: `database` (the primary store: PostgreSQL, MongoDB or the embedded one), `redis` (with `REDIS_URL`), `queue` (the job queue).",
  }),
});

const Version = Type.Object({
  api_version: Type.String({ description: "The path version, `v1`." }),
  version: Type.String({ description: "The server's release version." }),
  build: Type.String({ description: "Build identifier (env BUILD_ID), `dev` when unset." }),
  commit: Type.String({
    description: "Git commit the server was built from (env GIT_COMMIT or the checkout's HEAD), `unknown` when neither.",
  }),
  started_at: Type.String({ format: "date-time", description: "When this server process started." }),
  deprecations: Type.Array(
    Type.Object({
      path: Type.String({ description: "The deprecated path, under `/api/v1/workspaces/{slug}`." }),
      successor: Type.String({ description: "What replaces it: the same requests, this path instead." }),
      deprecated_at: Type.String({ format: "date-time", description: "Since when (its answers carry `Deprecation`, RFC 9745)." }),
      sunset_at: Type.String({ format: "date-time", description: "When it stops answering (its answers carry `Sunset`, RFC 8594)." }),
    }),
    { description: "Paths still answered but deprecated, with their successor and sunset." },
  ),
});

/** Public system endpoints. Health stays store-free so load balancers can poll it cheaply. */
export function systemRoutes(deps: ServerDeps) {
  const started = performance.now();
  const ready = deps.readiness ??
    readinessProbe([{ name: "database", required: true, check: async () => (await deps.core.stores.status()).ok }], {
      stopping: () => deps.shutdown?.aborted ?? false,
    });
  const version = {
    api_version: deps.build.api_version,
    version: deps.build.version,
    build: deps.build.build,
    commit: deps.build.commit,
    started_at: deps.build.started_at ?? new Date().toISOString(),
    deprecations: DEPRECATIONS.map((d) => ({ ...d })),
  };
  return new Elysia({ name: "system" })
    .get("/health", () => ({ status: "ok" as const, uptime_s: Math.round((performance.now() - started) / 1000) }), {
      // 400: the checks every request passes first (a URL over 8,192 characters or holding %00).
      response: { 200: Health, ...errors(400) },
      detail: {
        ...publicOperation,
        tags: ["system"],
        summary: "Runtime health check",
        description:
          "Public. Liveness: 200 while the process runs, whatever its dependencies (restart it when this fails). It does not touch the store: a load balancer should poll `/health/ready` instead.",
      },
    })
    .get("/health/ready", async ({ set }) => {
      const readiness = await ready();
      if (!servesTraffic(readiness)) {
        set.status = 503;
        set.headers["retry-after"] = "1";
      }
      return readiness;
    }, {
      response: { 200: Readiness, 503: Readiness, ...errors(400) },
      detail: {
        ...publicOperation,
        tags: ["system"],
        summary: "Readiness check (for load balancers)",
        description:
          "Public. Checks each dependency (each at most 2 s; answers are reused for 1 s) and answers 200 while the service can serve requests (`ready`, or `degraded` when only Redis or a shared job queue is down), 503 with `Retry-After` while the primary store is unreachable or the process is shutting down. Point load balancers and orchestrators' readiness probes here; `/health` is liveness only.",
      },
    })
    .get("/version", () => version, {
      response: { 200: Version, ...errors(400) },
      detail: {
        ...publicOperation,
        tags: ["system"],
        summary: "API version and deploy metadata",
        description:
          "Public. The path version, the release, build and commit, when this process started, and the deprecated paths with their successor and sunset date.",
      },
    });
}
