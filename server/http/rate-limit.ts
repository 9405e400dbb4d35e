import { decide, type RateCounter, type RateRule, type WindowCount } from "../../core/access/mod.ts";
import { AppError } from "../../core/kernel/mod.ts";
import type { Logger } from "./logger.ts";

export interface RateLimits {
  counter: RateCounter;
  /** per credential (API key), on every authenticated request; null: not limited, not counted */
  perKey: RateRule | null;
  /** per client address, on public endpoints that create or cost something; null: off */
  perIp: RateRule | null;
  /** take the client address from X-Forwarded-For (only behind a proxy you trust) */
  trustProxy: boolean;
}

type Headers = Record<string, unknown>;
let lastWarning = 0;

/**
 * Counts a hit and refuses over the limit with 429 RATE_LIMITED. Sets the IETF RateLimit-*
 * headers on every limited response. If the counter is unavailable (Redis down), the request is
 * let through and a warning logged at most every 10 s: an outage of the limiter must not become an
 * outage of the API.
 *
 * An in-process counter answers at once, and so does this (it returns nothing, or throws the 429):
 * a caller on the hot path awaits only a returned promise (a shared counter's round trip).
 */
export function enforceRateLimit(
  limits: RateLimits,
  logger: Logger,
  key: string,
  rule: RateRule | null,
  headers: Headers,
): Promise<void> | undefined {
  if (!rule) return undefined;
  let hit;
  try {
    hit = limits.counter.hit(key, rule.windowMs);
  } catch (error) {
    failOpen(logger, error);
    return undefined;
  }
  if (hit instanceof Promise) return hit.then((count) => applyRule(rule, count, headers), (error) => failOpen(logger, error));
  applyRule(rule, hit, headers);
  return undefined;
}

function failOpen(logger: Logger, error: unknown): void {
  const now = Date.now();
  if (now - lastWarning > 10_000) {
    lastWarning = now;
    logger.log("warn", "rate limiter unavailable: failing open", { error: (error as Error).message });
  }
}

function applyRule(rule: RateRule, count: WindowCount, headers: Headers): void {
  const d = decide(rule, count);
  headers["ratelimit-limit"] = String(d.limit);
  headers["ratelimit-remaining"] = String(d.remaining);
  headers["ratelimit-reset"] = String(d.resetSeconds);
  if (!d.allowed) {
    throw new AppError("RATE_LIMITED", `Too many requests: the limit is ${d.limit} per ${rule.windowMs / 1000} s`, [], {
      retry_after_s: d.resetSeconds,
    });
  }
}

/** The client's address: the socket peer, or the first X-Forwarded-For hop when the proxy is trusted. */
export function clientAddress(
  request: Request,
  server: { requestIP(r: Request): { address: string } | null } | null,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const fwd = request.headers.get("x-forwarded-for");
    if (fwd) return fwd.split(",")[0]!.trim();
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
