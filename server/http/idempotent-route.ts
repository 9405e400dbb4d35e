import { Type } from "@sinclair/typebox";
import { checkIdempotencyKey, IDEMPOTENCY_KEY_MAX, idempotent } from "../../core/credits/mod.ts";
import type { ServerDeps } from "../deps.ts";

/** The `Idempotency-Key` header of money-moving POSTs, as documented. */
export const IdempotencyHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      description:
        "Makes the request safe to retry: the first answer is kept 24 hours and replayed for the same key and body (`Idempotent-Replayed: true`); another body is a 409 `IDEMPOTENCY_KEY_REUSED`.",
    }),
  ),
});

interface Reply {
  status?: number | string;
  headers: Record<string, string | number>;
}

/**
 * Runs a money-moving operation under its `Idempotency-Key` (when sent) and writes the answer's
 * status and headers: `X-Credits-Charged` (what `charged` reads off the answer) and
 * `Idempotent-Replayed: true` on a replay.
 */
export async function moneyMoving<T>(
  core: ServerDeps["core"],
  request: Request,
  set: Reply,
  op: { workspace_id: string; scope: string; request: unknown; status?: number },
  run: () => Promise<T>,
  charged: (answer: T) => number,
): Promise<T> {
  const key = checkIdempotencyKey(request.headers.get("idempotency-key"));
  const answer = await idempotent(core, { workspace_id: op.workspace_id, scope: op.scope, key, request: op.request }, async () => ({
    status: op.status ?? 201,
    body: await run(),
  }));
  set.status = answer.status;
  set.headers["x-credits-charged"] = String(charged(answer.body));
  if (answer.replayed) set.headers["idempotent-replayed"] = "true";
  return answer.body;
}
