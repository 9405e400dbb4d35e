/**
 * JSON-RPC 2.0 as MCP uses it (one message per HTTP POST): what a message is, and the answers.
 * MCP forbids a null request id, and since revision 2025-06-18 a batch (an array); a batch is
 * refused as an invalid request on every revision this server speaks.
 */
export type JsonRpcId = string | number;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export type Incoming =
  | { kind: "request"; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string }
  | { kind: "response" }
  | { kind: "invalid"; id: JsonRpcId | null; message: string };

export interface JsonRpcError {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export interface JsonRpcResult {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** Classifies one parsed JSON value. */
export function classify(message: unknown): Incoming {
  if (Array.isArray(message)) {
    return { kind: "invalid", id: null, message: "Invalid request: batches are not supported; send one message per POST" };
  }
  if (!isObject(message)) return { kind: "invalid", id: null, message: "Invalid request: a JSON-RPC message is an object" };
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== "2.0") return { kind: "invalid", id, message: 'Invalid request: jsonrpc must be "2.0"' };
  if (typeof message.method === "string") {
    if (message.params !== undefined && !isObject(message.params)) {
      return { kind: "invalid", id, message: "Invalid request: params must be an object" };
    }
    if (!("id" in message)) return { kind: "notification", method: message.method };
    if (id === null) return { kind: "invalid", id: null, message: "Invalid request: id must be a string or a number" };
    return { kind: "request", id, method: message.method, params: (message.params as Record<string, unknown> | undefined) ?? {} };
  }
  if ("id" in message && ("result" in message || "error" in message)) return { kind: "response" };
  return { kind: "invalid", id, message: "Invalid request: neither a request, a notification nor a response" };
}

export function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcError {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

export function rpcResult(id: JsonRpcId, result: unknown): JsonRpcResult {
  return { jsonrpc: "2.0", id, result };
}
