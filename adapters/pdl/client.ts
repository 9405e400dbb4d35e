import { ProspectDirectoryError } from "../../core/radar/mod.ts";

/** How the PDL adapter reaches the API; the clock and the wait are injectable for tests. */
export interface PdlClientOptions {
  apiKey: string;
  /** Default https://api.peopledatalabs.com */
  baseUrl?: string;
  /** Waits out a 429; default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** 429s answered by waiting before giving up (`rate_limited`); default 3. */
  maxRetries?: number;
  /** The longest wait for one 429, in ms; default 60,000. */
  maxWaitMs?: number;
  /** Per request; default 30,000 ms. */
  timeoutMs?: number;
}

export interface PdlResponse {
  status: number;
  body: Record<string, unknown> | unknown[];
}

export const PDL_DEFAULT_BASE_URL = "https://api.peopledatalabs.com";

/**
 * When a 429's `x-ratelimit-reset` says the window reopens. PDL has documented it both as epoch
 * seconds ("1516124358") and as a UTC timestamp ("2022-02-23T20:19:55Z"); a small number is read
 * as seconds to wait. Without it, `retry-after` (seconds), else one second.
 */
export function waitForReset(headers: Headers, now: number): number {
  const reset = headers.get("x-ratelimit-reset");
  if (reset !== null && reset.trim() !== "") {
    const n = Number(reset);
    if (Number.isFinite(n)) return n > 1e9 ? n * 1000 - now : n * 1000;
    const at = Date.parse(reset);
    if (Number.isFinite(at)) return at - now;
  }
  const after = Number(headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? after * 1000 : 1000;
}

/** A PDL error body `{status, error: {type, message}}` as one line (never the key). */
function describe(status: number, body: unknown): string {
  const error = (body as { error?: { type?: unknown; message?: unknown } } | null)?.error;
  const type = typeof error?.type === "string" ? error.type : "error";
  const message = typeof error?.message === "string" ? error.message : "no message";
  return `People Data Labs answered ${status} (${type}): ${message}`.slice(0, 500);
}

/**
 * One HTTP client for PDL v5: the key in `X-Api-Key`, JSON both ways. 200 and 404 (a miss, which
 * PDL does not charge) are answers; a 429 is waited out until `x-ratelimit-reset`; anything else
 * throws a `ProspectDirectoryError`.
 */
export function createPdlClient(options: PdlClientOptions) {
  const base = (options.baseUrl ?? PDL_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function once(method: "GET" | "POST", path: string, init: { params?: Record<string, string>; body?: unknown }) {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(init.params ?? {})) url.searchParams.set(k, v);
    try {
      return await fetch(url, {
        method,
        headers: {
          "X-Api-Key": options.apiKey,
          accept: "application/json",
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new ProspectDirectoryError("unavailable", `People Data Labs is unreachable: ${(e as Error).name}`);
    }
  }

  return {
    async request(
      method: "GET" | "POST",
      path: string,
      init: { params?: Record<string, string>; body?: unknown } = {},
    ): Promise<PdlResponse> {
      for (let attempt = 0;; attempt++) {
        const res = await once(method, path, init);
        const body = await res.json().catch(() => null);
        if (res.status === 200 || res.status === 404) return { status: res.status, body: body ?? {} };
        if (res.status === 429 && attempt < maxRetries) {
          await sleep(Math.min(maxWaitMs, Math.max(0, waitForReset(res.headers, now()))));
          continue;
        }
        const reason = res.status === 429
          ? "rate_limited"
          : res.status === 401 || res.status === 403
          ? "unauthorized"
          : res.status >= 400 && res.status < 500
          ? "bad_request"
          : "unavailable";
        throw new ProspectDirectoryError(reason, describe(res.status, body));
      }
    },
  };
}
export type PdlClient = ReturnType<typeof createPdlClient>;
