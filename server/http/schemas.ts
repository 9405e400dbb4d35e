import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { DEFAULT_LIMIT } from "../../core/kernel/paging.ts";
import { ErrorEnvelope } from "./error-envelope.ts";
import { limitParam, offsetParam } from "./query-schemas.ts";

export const strict = { additionalProperties: false } as const;

export const PageQuery = Type.Object({ limit: limitParam(DEFAULT_LIMIT), offset: offsetParam }, strict);

/**
 * The documented error responses of a route, each with the one envelope. A route that can answer
 * 401 authenticates, and every authenticated request is rate limited, so 429 comes with 401.
 */
export function errors(...statuses: number[]): Record<number, typeof ErrorEnvelope> {
  const out: Record<number, typeof ErrorEnvelope> = {};
  for (const s of statuses) out[s] = ErrorEnvelope;
  if (out[401]) out[429] = ErrorEnvelope;
  return out;
}

/** `{ <name>: T[], total, has_more }`: the shape of every offset-paged list. */
export function pageOf<T extends TSchema, N extends string>(name: N, item: T): TObject {
  return Type.Object({
    [name]: Type.Array(item),
    total: Type.Integer({ description: "Rows matching, over all pages." }),
    has_more: Type.Boolean(),
  });
}

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

/** An operation that takes a credential: an API key in `x-api-key`, or the same key (or an access token) as `Authorization: Bearer`. */
export const authenticated = { security: [{ apiKey: [] }, { bearer: [] }] as Array<Record<string, string[]>> };
/** A public operation says so explicitly: an empty `security`, not an absent one (client generators read absent as "unknown"). */
export const publicOperation = { security: [] as Array<Record<string, string[]>> };
