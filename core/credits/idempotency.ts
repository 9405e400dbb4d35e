import type { CoreDeps } from "../kernel/deps.ts";
import { conflict, validationFailed } from "../kernel/errors.ts";
import { idempotencyKeyReused } from "./errors.ts";
import type { CreditStores } from "./ports.ts";

/** How long an answer is kept for its key (ADR 021: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A key still pending after this long belongs to a request that died: it may be taken over. */
export const IDEMPOTENCY_STALE_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 255;

/** An `Idempotency-Key` as sent: 1 to 255 characters, else a 400. */
export function checkIdempotencyKey(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  if (raw.length < 1 || raw.length > IDEMPOTENCY_KEY_MAX) {
    throw validationFailed(`Invalid Idempotency-Key: expected 1 to ${IDEMPOTENCY_KEY_MAX} characters`, [
      { path: "header.idempotency-key", message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` },
    ]);
  }
  return raw;
}

export interface IdempotentRequest {
  workspace_id: string;
  /** the operation, e.g. `credits.grant`: a key is scoped to it */
  scope: string;
  key: string | null;
  /** what identifies the request besides the key (its body and parameters) */
  request: unknown;
}

export interface Answer<T> {
  status: number;
  body: T;
}

/** JSON with object keys sorted, so equal requests fingerprint alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a < b ? -1 : 1);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

async function fingerprint(request: unknown): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(request)));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Runs `run` once per key: the first answer is kept and replayed for the same key and request
 * (`replayed: true`); another request under the key is a 409 `IDEMPOTENCY_KEY_REUSED`, one still
 * running a 409 `CONFLICT`. A failed operation keeps nothing, so it may be retried. Without a
 * key, `run` simply runs.
 */
export async function idempotent<T>(
  deps: CoreDeps<CreditStores>,
  req: IdempotentRequest,
  run: () => Promise<Answer<T>>,
): Promise<Answer<T> & { replayed: boolean }> {
  if (req.key === null) return { ...(await run()), replayed: false };
  const now = deps.clock.now();
  const print = await fingerprint({ scope: req.scope, request: req.request });
  const store = deps.stores.idempotency;
  const begun = await store.begin({
    workspace_id: req.workspace_id,
    scope: req.scope,
    key: req.key,
    fingerprint: print,
    state: "pending",
    status: null,
    body: null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  }, new Date(now.getTime() - IDEMPOTENCY_STALE_MS).toISOString());
  switch (begun.kind) {
    case "mismatch":
      throw idempotencyKeyReused();
    case "pending":
      throw conflict("Idempotency-Key in use: a request with this key is still being processed; retry shortly");
    case "done":
      return { status: begun.record.status ?? 200, body: begun.record.body as T, replayed: true };
  }
  let answer: Answer<T>;
  try {
    answer = await run();
  } catch (e) {
    await store.abandon(req.workspace_id, req.scope, req.key, print).catch(() => {});
    throw e;
  }
  await store.finish(req.workspace_id, req.scope, req.key, answer);
  return { ...answer, replayed: false };
}
