import { Type } from "@sinclair/typebox";
import { AppError, type ErrorCode, type ErrorDetail } from "../../core/kernel/mod.ts";
import { STATUS_OF } from "./error-status.ts";

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: "Stable machine-readable code, e.g. VALIDATION_FAILED, NOT_FOUND." }),
      message: Type.String(),
      details: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
      request_id: Type.String({ description: "Also sent as the x-request-id response header." }),
    }, { additionalProperties: true }),
  },
  { description: "The error envelope of every non-2xx response." },
);

export function envelope(code: ErrorCode, message: string, details: ErrorDetail[], requestId: string, meta?: Record<string, unknown>) {
  return { error: { code, message, details, request_id: requestId, ...meta } };
}

export function errorResponse(err: AppError, requestId: string, headers: Record<string, string> = {}): Response {
  if (err.code === "RATE_LIMITED" && typeof err.meta?.retry_after_s === "number") {
    headers = { ...headers, "retry-after": String(err.meta.retry_after_s) };
  }
  return new Response(JSON.stringify(envelope(err.code, err.message, err.details, requestId, err.meta)), {
    status: STATUS_OF[err.code],
    headers: { "content-type": "application/json", "x-request-id": requestId, ...headers },
  });
}
