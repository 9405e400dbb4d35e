import { type Static, type TSchema, type TUnknown, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError, validationFailed } from "../kernel/errors.ts";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import { verifyHubSignature, verifyHubSignatureSha1 } from "./signature.ts";
import { verifyStandardWebhook } from "./standard-webhooks.ts";
import { verifyStripeSignature } from "./stripe-signature.ts";

/**
 * The one way in of every inbound receiver (ADR 060): the
 * signature over the raw body first (a timestamp outside 300 s where the scheme has one; compared in
 * constant time), and only then the body, parsed as JSON and checked against the receiver's schema.
 */
export const SIGNATURE_SCHEMES = ["hub-sha256", "hub-sha1", "stripe", "standard-webhooks"] as const;
/**
 * `hub-sha256`: `X-Hub-Signature-256` (GitHub, Gitea, Forgejo); `hub-sha1`: `X-Hub-Signature`
 * (Intercom); `stripe`: `t=…,v1=…`; `standard-webhooks`: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` under a `whsec_` secret.
 */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** How a receiver's provider signs: the scheme, and the setting holding the secret (named in a refusal). */
export interface SignedBy {
  scheme: SignatureScheme;
  setting: string;
}

/** One delivery as it came: the raw bytes and the headers its scheme reads. */
export interface SignedDelivery {
  /** The raw body, exactly as received: the signature covers these bytes. */
  body: Uint8Array;
  /** The scheme's signature header. */
  signature: string | null;
  /** Standard Webhooks' `webhook-id` and `webhook-timestamp` (the other schemes have none). */
  id?: string | null;
  timestamp?: string | null;
  /** `application/x-www-form-urlencoded`: the JSON is the `payload` field (GitHub's form format). */
  contentType?: string | null;
  /** When it arrived (the core clock's now): the timestamp window is measured from it. */
  receivedAt: Date;
}

/** What the receiver expects of a verified body: its schema, and what a refusal calls it (`Invalid <what>`). */
export interface SignedEventShape<T extends TSchema> {
  schema: T;
  what: string;
}

/** Any JSON document: for a receiver that reads the event's type before its shape. */
export const ANY_JSON_EVENT: SignedEventShape<TUnknown> = { schema: Type.Unknown(), what: "event" };

const REFUSALS: Record<SignatureScheme, (setting: string) => AppError> = {
  // The code-host receiver answered UNAUTHENTICATED before INVALID_SIGNATURE existed (ADR 010); its clients see that code still.
  "hub-sha256": (setting) =>
    new AppError(
      "UNAUTHENTICATED",
      `Invalid webhook signature: X-Hub-Signature-256 must be the HMAC-SHA256 of the raw body under ${setting}`,
    ),
  "hub-sha1": (setting) =>
    new AppError(
      "INVALID_SIGNATURE",
      `Invalid webhook signature: X-Hub-Signature must be sha1= and the hex HMAC-SHA1 of the raw body under ${setting}`,
    ),
  stripe: (setting) =>
    new AppError(
      "INVALID_SIGNATURE",
      `Invalid webhook signature: billing-signature must be t=<unix seconds within 300 s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under ${setting}>`,
    ),
  "standard-webhooks": (setting) =>
    new AppError(
      "INVALID_SIGNATURE",
      `Invalid webhook signature: webhook-id, webhook-timestamp (within 300 s) and webhook-signature (v1, HMAC-SHA256 under ${setting}) are required`,
    ),
};

function verified(scheme: SignatureScheme, secret: string, d: SignedDelivery): boolean {
  switch (scheme) {
    case "hub-sha256":
      return verifyHubSignature(secret, d.body, d.signature);
    case "hub-sha1":
      return verifyHubSignatureSha1(secret, d.body, d.signature);
    case "stripe":
      return verifyStripeSignature(secret, d.signature, d.body, d.receivedAt);
    case "standard-webhooks":
      return verifyStandardWebhook(
        secret,
        { id: d.id ?? null, timestamp: d.timestamp ?? null, signature: d.signature },
        d.body,
        d.receivedAt,
      );
  }
}

function jsonText(d: SignedDelivery): string {
  const text = new TextDecoder().decode(d.body);
  if ((d.contentType ?? "").startsWith("application/x-www-form-urlencoded")) return new URLSearchParams(text).get("payload") ?? "";
  return text;
}

/**
 * The delivery's event once its signature holds: a bad or missing signature (or timestamp) is
 * refused (401: `INVALID_SIGNATURE`, `UNAUTHENTICATED` for `hub-sha256`) before the body is parsed;
 * a signed body that is not JSON, or not of the shape, is VALIDATION_FAILED (400).
 */
export function readSignedEvent<T extends TSchema>(
  signer: SignedBy,
  secret: string,
  delivery: SignedDelivery,
  shape: SignedEventShape<T>,
): Static<T> {
  if (!verified(signer.scheme, secret, delivery)) throw REFUSALS[signer.scheme](signer.setting);
  let value: unknown;
  try {
    value = JSON.parse(jsonText(delivery));
  } catch {
    throw validationFailed("Invalid webhook body: it is not JSON");
  }
  if (!Value.Check(shape.schema, value)) {
    throw validationFailed(`Invalid ${shape.what}`, schemaErrorDetails(Value.Errors(shape.schema, value), { limit: 1 }));
  }
  return value as Static<T>;
}
