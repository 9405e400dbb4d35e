import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { DEFAULT_LIMIT } from "../../core/kernel/mod.ts";
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

/**
 * An operation a person may call with any credential: an API key in `x-api-key`, the same key (or
 * an OAuth access token) as `Authorization: Bearer`, or the dashboard session's cookie `wks_session`
 * (docs/decisions/044-sessions-everywhere-a-person-acts.md). `oauth2` is added with the operation's
 * scopes by openapi-conformance.ts.
 */
export const authenticated = { security: [{ apiKey: [] }, { bearer: [] }, { session: [] }] as Array<Record<string, string[]>> };
/**
 * The platform operator's operations: only `PLATFORM_ADMIN_KEY`, in `x-api-key` or as a bearer; a
 * session is no operator (401 without a header credential), nor is any workspace credential (403).
 */
export const operatorKey = { security: [{ apiKey: [] }, { bearer: [] }] as Array<Record<string, string[]>> };
/** A public operation says so explicitly: an empty `security`, not an absent one (client generators read absent as "unknown"). */
export const publicOperation = { security: [] as Array<Record<string, string[]>> };
