import type { PriceTable } from "../core/contacts/mod.ts";
import type { BlogSource } from "../core/blog/mod.ts";
import type { ComposedDeps } from "../core/mod.ts";
import type { OidcProvider } from "../core/identity/mod.ts";
import type { Logger } from "./http/logger.ts";
import type { ReadinessProbe } from "./readiness.ts";
import type { RateLimits } from "./http/rate-limit.ts";

export interface BuildInfo {
  api_version: string;
  version: string;
  build: string;
  commit: string;
  /** When this process started (ISO 8601); unset, when the routes were built. */
  started_at?: string;
}

export interface ServerConfig {
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** IMPORT_LIMIT_BYTES: largest archive an import takes (server/http/upload-limits.ts); unset, 1 GiB. */
  importLimitBytes?: number;
  /** Allowed CORS origins; `*` for any; empty for none. */
  corsOrigins: string[];
  /** Secret of `POST /webhooks/code-host` signatures; unset, that receiver answers 404. */
  codeHostWebhookSecret?: string | null;
  /** Secret of `POST /webhooks/radar/monitor` (Standard Webhooks); unset, that receiver answers 404. */
  radarWebhookSecret?: string | null;
  /** The platform operator's key (`x-api-key`); unset, the operator's operations are 403 for everyone. */
  platformAdminKey?: string | null;
  /** What radar charges (`RADAR_PRICES` over the defaults). */
  radarPrices?: PriceTable;
  /**
   * PUBLIC_URL: the service's external origin (links, protected-resource metadata, challenges);
   * unset, each request's own origin (http/public-origin.ts).
   */
  publicUrl?: string | null;
  /** IDENTITY_WEBHOOK_SECRET (Standard Webhooks); unset, `POST /webhooks/identity` answers 404. */
  identityWebhookSecret?: string | null;
  /** SUPPORT_WEBHOOK_SECRET (Intercom's `X-Hub-Signature`, HMAC-SHA1); unset, `/webhooks/support` answers 404. */
  supportWebhookSecret?: string | null;
  /** BILLING_WEBHOOK_SECRET (Stripe's scheme); unset, `POST /webhooks/billing` answers 404. */
  billingWebhookSecret?: string | null;
  /** The server secret (SECRET_KEY or the embedded one): keys the consent page's CSRF tokens. Unset, a per-process random key. */
  secretKey?: string | null;
  /** WORKSPACE_BOOTSTRAP: `operator` lets only the platform operator key create workspaces; unset, `open`. */
  workspaceBootstrap?: "open" | "operator";
  /** IMPORT_MAX_ROWS: most rows of one records import (all or nothing); unset, 100,000. */
  importMaxRows?: number;
}

export interface ServerDeps {
  core: ComposedDeps;
  logger: Logger;
  config: ServerConfig;
  build: BuildInfo;
  rateLimits: RateLimits;
  /** Where the public blog's posts come from (BLOG_DIR); without it, the blog has no posts. */
  blog?: BlogSource;
  /**
   * The OpenID Connect provider of the dashboard's sign-in (OIDC_*); unset, `/auth/*` answers 404
   * and the consent page asks for an API key.
   */
  oidc?: OidcProvider | null;
  /** Aborted when the server starts shutting down: long-lived responses (event streams) end then. */
  shutdown?: AbortSignal;
  /**
   * Checks the dependencies for `GET /health/ready` (the primary store, Redis, the job queue);
   * unset, the primary store alone.
   */
  readiness?: ReadinessProbe;
}
