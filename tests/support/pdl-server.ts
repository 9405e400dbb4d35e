import { matchesQuery } from "./es-query.ts";
import { type PdlRecord, pdlRecords } from "./pdl-records.ts";

/**
 * A People Data Labs v5 protocol server for the tests, on loopback, written from PDL's published
 * reference (docs/decisions/022-prospect-directory.md cites the pages) and serving the sample
 * directory's data as PDL records:
 * - every request needs the key in `X-Api-Key` (else 401 `authentication_error`);
 * - `POST /v5/{company,person}/search` `{query, size 1–100 (default 1), scroll_token?}` →
 *   `{status, data, total, scroll_token}`; nothing found → 404 `not_found`;
 * - `GET /v5/person/enrich?pdl_id=` → `{status, likelihood, data}`; `POST /v5/person/bulk`
 *   `{requests: [{params}]}` → one `{status, likelihood, data}` (or a 404 error) per request;
 * - `GET /v5/company/enrich?pdl_id=` → the record flat beside `status` and `likelihood`;
 * - errors are `{status, error: {type, message}}`; with `rateLimitOnce` the first request is
 *   answered 429 with `x-ratelimit-reset` (epoch seconds, one second on).
 */
export interface PdlServerOptions {
  apiKey: string;
  rateLimitOnce?: boolean;
  /** Every request answered 429. */
  rateLimitAlways?: boolean;
  /** Every request answered with this status and a PDL error body (a 5xx outage, say). */
  failStatus?: number;
  /** Each search answers this much later: a slow provider, so a test can stop a worker mid-run. */
  searchDelayMs?: number;
  /**
   * Person enrich requests (a contact unlock's lookups) are held open until `releaseEnrich()`: a
   * provider that keeps its caller waiting, so a test can kill the caller between its writes.
   */
  holdEnrich?: boolean;
}

export interface PdlServer {
  url: string;
  /** What reached the server, in order: method, path, the status answered and the JSON body sent. */
  requests: { method: string; path: string; status: number; body: unknown }[];
  /** Enrich requests held open now (`holdEnrich`). */
  readonly heldEnrich: number;
  /** Answers the held enrich requests, and every later one at once. */
  releaseEnrich(): void;
  stop(): Promise<void>;
}

const error = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
  Response.json({ status, error: { type, message } }, { status, headers });

/** A scroll token: where the next page starts, bound to the query it came from. */
const fingerprint = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h.toString(36);
};

export function startPdlServer(options: PdlServerOptions): PdlServer {
  const { companies, people } = pdlRecords();
  const byId = { company: new Map(companies.map((r) => [r.id as string, r])), person: new Map(people.map((r) => [r.id as string, r])) };
  const requests: PdlServer["requests"] = [];
  let limited = false;
  let heldEnrich = 0;
  let release = () => {};
  let gate: Promise<void> | null = options.holdEnrich ? new Promise<void>((r) => (release = r)) : null;

  function search(kind: "company" | "person", body: Record<string, unknown>): Response {
    for (const key of Object.keys(body)) {
      if (!["query", "sql", "size", "scroll_token", "dataset", "titlecase", "pretty"].includes(key)) {
        return error(400, "invalid_request_error", `Unknown parameter ${key}`);
      }
    }
    if (body.query === undefined) return error(400, "invalid_request_error", "query is required (sql is not served here)");
    const size = body.size ?? 1;
    if (typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > 100) {
      return error(400, "invalid_request_error", "size must be an integer from 1 to 100");
    }
    const q = JSON.stringify(body.query);
    let from = 0;
    if (body.scroll_token !== undefined) {
      const m = /^(\d+)\$(\w+)$/.exec(String(body.scroll_token));
      if (!m || m[2] !== fingerprint(q)) return error(400, "invalid_request_error", "Invalid scroll_token for this query");
      from = Number(m[1]);
    }
    let matched: PdlRecord[];
    try {
      matched = (kind === "company" ? companies : people).filter((r) => matchesQuery(body.query, r));
    } catch (e) {
      return error(400, "invalid_request_error", (e as Error).message);
    }
    if (matched.length === 0) return error(404, "not_found", "No records were found matching your search");
    const data = matched.slice(from, from + size);
    const next = from + data.length;
    return Response.json({
      status: 200,
      data,
      total: matched.length,
      ...(next < matched.length ? { scroll_token: `${next}$${fingerprint(q)}` } : {}),
    });
  }

  function enrichPerson(params: Record<string, unknown>): { status: number; body: Record<string, unknown> } {
    const record = byId.person.get(String(params.pdl_id ?? ""));
    if (!record) {
      return { status: 404, body: { status: 404, error: { type: "not_found", message: "No records were found matching your request" } } };
    }
    return { status: 200, body: { status: 200, likelihood: 10, data: record } };
  }

  async function route(req: Request, url: URL): Promise<Response> {
    if (options.failStatus) return error(options.failStatus, "server_error", "The server is unavailable");
    if (options.rateLimitAlways || (options.rateLimitOnce && !limited)) {
      limited = true;
      const reset = String(Math.floor(Date.now() / 1000) + 1);
      return error(429, "rate_limit_error", "An error occurred due to requests hitting the API too quick", { "x-ratelimit-reset": reset });
    }
    if (req.headers.get("x-api-key") !== options.apiKey) return error(401, "authentication_error", "Invalid or missing API key");
    const path = url.pathname;
    const json = async () => (await req.json().catch(() => null)) as Record<string, unknown> | null;
    if (req.method === "POST" && (path === "/v5/company/search" || path === "/v5/person/search")) {
      const body = await json();
      if (!body || typeof body !== "object") return error(400, "invalid_request_error", "Expected a JSON body");
      return search(path === "/v5/company/search" ? "company" : "person", body);
    }
    if (req.method === "GET" && path === "/v5/person/enrich") {
      const answer = enrichPerson(Object.fromEntries(url.searchParams));
      return Response.json(answer.body, { status: answer.status });
    }
    if (req.method === "POST" && path === "/v5/person/bulk") {
      const body = await json();
      const list = body?.requests;
      if (!Array.isArray(list) || list.length < 1 || list.length > 100) {
        return error(400, "invalid_request_error", "requests must hold 1 to 100 objects");
      }
      return Response.json(list.map((r) => enrichPerson(((r as { params?: Record<string, unknown> })?.params) ?? {}).body));
    }
    if (req.method === "GET" && path === "/v5/company/enrich") {
      const record = byId.company.get(url.searchParams.get("pdl_id") ?? "");
      if (!record) return error(404, "not_found", "No records were found matching your request");
      return Response.json({ status: 200, likelihood: 10, ...record });
    }
    return error(404, "not_found", `No route ${req.method} ${path}`);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? await req.clone().json().catch(() => null) : null;
      if (options.searchDelayMs && url.pathname.endsWith("/search")) await Bun.sleep(options.searchDelayMs);
      if (gate && url.pathname === "/v5/person/enrich") {
        heldEnrich++;
        await gate;
        heldEnrich--;
      }
      const res = await route(req, url);
      requests.push({ method: req.method, path: url.pathname, status: res.status, body });
      return res;
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    get heldEnrich() {
      return heldEnrich;
    },
    releaseEnrich() {
      gate = null;
      release();
    },
    stop: () => server.stop(true),
  };
}
