import type { TObject, TSchema } from "@sinclair/typebox";
import { type DocumentDecoration, Elysia } from "elysia";
import { AppError } from "../../core/kernel/mod.ts";
import { rawBody } from "./raw-body.ts";
import { errors, publicOperation } from "./schemas.ts";

/** What a receiver's route hands to core: the headers as sent and the raw body (the signature covers it). */
export interface ArrivedDelivery {
  headers: Record<string, string | undefined>;
  body: Uint8Array;
  contentType: string | null;
}

export interface SignedWebhook {
  /** The Elysia plugin's name (unique per receiver). */
  name: string;
  path: string;
  /** The receiver's secret; null while it is off (404, `notConfigured`). */
  secret(): string | null | undefined;
  /** The 404's message while the receiver is off: the setting(s) to set. */
  notConfigured: string;
  /** The headers its scheme reads, as documented. */
  headers: TObject;
  /** The 200 answer. */
  result: TSchema;
  /** Error statuses besides what every receiver answers (400, 401, 404, 413). */
  alsoErrors?: number[];
  detail: { summary: string; requestBody: DocumentDecoration["requestBody"]; description: string };
  /** Core's receiver: verifies, parses (`readSignedEvent`) and applies the delivery. */
  receive(secret: string, delivery: ArrivedDelivery): Promise<unknown>;
}

/**
 * `POST <path>` of an inbound webhook (ADR 060), the route every receiver is: public (no API key;
 * the provider's signature authenticates), its body the raw bytes sent (`rawBody`, so core
 * verifies exactly what was signed), 404 while its secret is unset, and core's receiver for the
 * rest. Each is documented under `webhooks`.
 */
export function signedWebhookRoute(w: SignedWebhook) {
  return new Elysia({ name: w.name }).use(rawBody).post(
    w.path,
    ({ body, headers, request }) => {
      const secret = w.secret();
      if (!secret) throw new AppError("NOT_FOUND", w.notConfigured);
      return w.receive(secret, {
        headers: headers as Record<string, string | undefined>,
        body: body as Uint8Array,
        contentType: request.headers.get("content-type"),
      });
    },
    {
      rawBody: true,
      headers: w.headers,
      response: { 200: w.result, ...errors(400, 401, 404, ...(w.alsoErrors ?? []), 413) },
      detail: { ...publicOperation, tags: ["webhooks"], ...w.detail },
    },
  );
}
