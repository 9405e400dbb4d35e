/**
 * The benchmark scenarios, measured in this order. Add a scenario by adding
 * an object: a name and a `prepare` that returns the request to load.
 */
import type { Scenario } from "./scenario.ts";
import { bareServer } from "./targets/bare.ts";
import {
  embeddedApp,
  mongoApp,
  mongoRedisApp,
  postgresApp,
  postgresAppUncached,
  postgresAppUnlimited,
  postgresRedisApp,
} from "./targets/app.ts";

export const scenarios: Scenario[] = [
  {
    name: "bare Bun.serve hello-world",
    baseline: true,
    async prepare(ctx) {
      const { origin } = await bareServer(ctx);
      return { url: `${origin}/` };
    },
  },
  {
    name: "GET /api/v1/health (embedded)",
    async prepare(ctx) {
      const app = await embeddedApp(ctx);
      return { url: `${app.origin}/api/v1/health` };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (embedded)",
    async prepare(ctx) {
      const app = await embeddedApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres)",
    async prepare(ctx) {
      const app = await postgresApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },

  {
    name: "GET /api/v1/workspaces/{slug} (postgres, rate limiting off)",
    async prepare(ctx) {
      const app = await postgresAppUnlimited(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres, auth cache off)",
    async prepare(ctx) {
      const app = await postgresAppUncached(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (mongo)",
    async prepare(ctx) {
      const app = await mongoApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres + redis)",
    async prepare(ctx) {
      const app = await postgresRedisApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (mongo + redis)",
    async prepare(ctx) {
      const app = await mongoRedisApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
];
