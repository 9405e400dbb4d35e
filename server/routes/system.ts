import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { ServerDeps } from "../deps.ts";
import { DEPRECATIONS } from "../http/deprecations.ts";
import { errors, publicOperation } from "../http/schemas.ts";

const Health = Type.Object({
  status: Type.Literal("ok"),
  uptime_s: Type.Number(),
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
        description: "Public. Does not touch the store; see `/workspaces/{slug}/health` for store status.",
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
