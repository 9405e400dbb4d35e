/**
 * Which database errors mean "the database is not there" rather than "this statement is wrong",
 * and the domain error a caller gets for them: 503 `STORE_UNAVAILABLE` (a retry may succeed),
 * not a 500 (docs/decisions/054-database-outages.md).
 */
import { AppError } from "../../core/kernel/errors.ts";

/** postgres.js's own codes for a connection that closed, was destroyed, ended or never opened. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT"]);
/** The socket's: refused, reset, broken pipe, unreachable, unresolvable. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/**
 * SQLSTATEs of a server that is shutting down, starting up, crashed, out of connection slots, or
 * that ended the session (class 08: connection exception; 57P01-03: operator intervention; 25P03:
 * idle in transaction too long).
 */
const SERVER_STATES = new Set(["57P01", "57P02", "57P03", "53300", "25P03"]);
/** A statement cancelled, here by `statement_timeout`: the connection itself is fine. */
export const QUERY_CANCELED = "57014";

function codeOf(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether `e` says the connection it ran on is gone (or never came): such a connection is not used
 * again, and its transaction is over whatever the client library thinks.
 */
export function isConnectionLoss(e: unknown): boolean {
  const code = codeOf(e);
  if (code === undefined) return false;
  return DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || SERVER_STATES.has(code) || code.startsWith("08");
}

/** Whether `e` means the database is unavailable or too slow: lost connections and statements past their timeout. */
export function isUnavailable(e: unknown): boolean {
  return isConnectionLoss(e) || codeOf(e) === QUERY_CANCELED;
}

/**
 * The caller's error for a lost connection or a timeout (`timeoutMs`: the bound the database did
 * not answer within), the driver's error kept as `cause` for the logs, not for the client.
 */
export function storeUnavailable(cause: unknown, timeoutMs?: number): AppError {
  const message = timeoutMs !== undefined
    ? `Service unavailable: the database did not answer within ${timeoutMs} ms; retry shortly`
    : "Service unavailable: the database cannot be reached; retry shortly";
  const error = new AppError("STORE_UNAVAILABLE", message);
  Object.defineProperty(error, "cause", { value: cause, enumerable: false });
  return error;
}

/** `e` as the caller should see it: a domain error when the database is unavailable, else unchanged. */
export function unavailableOr(e: unknown, statementTimeoutMs?: number): unknown {
  if (e instanceof AppError || !isUnavailable(e)) return e;
  return storeUnavailable(e, codeOf(e) === QUERY_CANCELED ? statementTimeoutMs : undefined);
}
