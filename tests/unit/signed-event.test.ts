import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { type AppError, isAppError } from "../../core/kernel/errors.ts";
import { constantTimeEqual, hmac } from "../../core/kernel/mac.ts";
import {
  ANY_JSON_EVENT,
  hubSignature,
  hubSignatureSha1,
  readSignedEvent,
  type SignatureScheme,
  type SignedDelivery,
  signStandardWebhook,
  standardWebhookSignature,
  stripeSignature,
  stripeSignatureHeader,
  verifyStandardWebhook,
} from "../../core/webhooks/mod.ts";

const enc = new TextEncoder();
const NOW = new Date("2025-06-01T12:00:00.000Z");
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** Each scheme's secret and how its provider signs a body sent at `at`. */
const SCHEMES: Record<SignatureScheme, {
  secret: string;
  other: string;
  timestamped: boolean;
  sign(secret: string, body: Uint8Array, at: Date): Omit<SignedDelivery, "body" | "receivedAt">;
}> = {
  "hub-sha256": {
    secret: "code-host-secret",
    other: "another-secret",
    timestamped: false,
    sign: (secret, body) => ({ signature: hubSignature(secret, body) }),
  },
  "hub-sha1": {
    secret: "intercom-client-secret",
    other: "another-secret",
    timestamped: false,
    sign: (secret, body) => ({ signature: hubSignatureSha1(secret, body) }),
  },
  stripe: {
    secret: "whsec_stripe_test_secret",
    other: "whsec_another",
    timestamped: true,
    sign: (secret, body, at) => ({ signature: stripeSignatureHeader(secret, unix(at), body) }),
  },
  "standard-webhooks": {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    other: "whsec_QW5vdGhlclNlY3JldEtleQ==",
    timestamped: true,
    sign: (secret, body, at) => signStandardWebhook(secret, "msg_1", at, body),
  },
};

const Ping = Type.Object({ type: Type.Literal("ping"), n: Type.Integer() });
const PING = { schema: Ping, what: "ping event" };
const SETTING = "TEST_WEBHOOK_SECRET";

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("readSignedEvent()", () => {
  for (const [scheme, s] of Object.entries(SCHEMES) as [SignatureScheme, (typeof SCHEMES)[SignatureScheme]][]) {
    const signer = { scheme, setting: SETTING };
    const refusedCode = scheme === "hub-sha256" ? "UNAUTHENTICATED" : "INVALID_SIGNATURE";
    const delivery = (raw: string, opts: { secret?: string; signedAt?: Date; receivedAt?: Date } = {}): SignedDelivery => {
      const body = enc.encode(raw);
      return { body, ...s.sign(opts.secret ?? s.secret, body, opts.signedAt ?? NOW), receivedAt: opts.receivedAt ?? NOW };
    };
    const read = (d: SignedDelivery) => readSignedEvent(signer, s.secret, d, PING);

    describe(scheme, () => {
      test("a signed body of the shape is read", () => {
        expect(read(delivery('{"type":"ping","n":7}'))).toEqual({ type: "ping", n: 7 });
      });

      test(`a bad or missing signature is 401 ${refusedCode}, naming the setting, before the body is parsed`, () => {
        const signed = delivery('{"type":"ping","n":7}');
        for (
          const d of [
            { ...signed, body: enc.encode('{"type":"ping","n":8}') },
            { ...signed, signature: null },
            { ...signed, signature: "garbage" },
            { ...delivery("not json"), signature: signed.signature },
          ]
        ) {
          const e = refusal(() => read(d));
          expect([e.code, e.message.includes(SETTING)]).toEqual([refusedCode, true]);
        }
      });

      test("a body signed with another secret is refused", () => {
        expect(refusal(() => read(delivery('{"type":"ping","n":7}', { secret: s.other }))).code).toBe(refusedCode);
      });

      if (s.timestamped) {
        test("a timestamp more than 300 s from arrival, either way, is refused; within it is read", () => {
          const raw = '{"type":"ping","n":7}';
          const late = new Date(NOW.getTime() + 301_000);
          const early = new Date(NOW.getTime() - 301_000);
          expect(refusal(() => read(delivery(raw, { receivedAt: late }))).code).toBe(refusedCode);
          expect(refusal(() => read(delivery(raw, { receivedAt: early }))).code).toBe(refusedCode);
          expect(read(delivery(raw, { receivedAt: new Date(NOW.getTime() + 299_000) }))).toEqual({ type: "ping", n: 7 });
        });
      } else {
        test("the scheme carries no timestamp: a delivery read a day after it was signed still verifies", () => {
          const d = delivery('{"type":"ping","n":7}', { receivedAt: new Date(NOW.getTime() + 86_400_000) });
          expect(read(d)).toEqual({ type: "ping", n: 7 });
        });
      }

      test("a signed body that is not JSON is 400 VALIDATION_FAILED", () => {
        const e = refusal(() => read(delivery('{"type":')));
        expect([e.code, e.message]).toEqual(["VALIDATION_FAILED", "Invalid webhook body: it is not JSON"]);
      });

      test("a signed body outside the shape is 400 VALIDATION_FAILED naming what was expected and where", () => {
        const e = refusal(() => read(delivery('{"type":"ping","n":"seven"}')));
        expect([e.code, e.message]).toEqual(["VALIDATION_FAILED", "Invalid ping event"]);
        expect(e.details.map((d) => d.path)).toEqual(["/n"]);
        // Any JSON passes ANY_JSON_EVENT, for a receiver that reads the type first.
        expect(readSignedEvent(signer, s.secret, delivery("[1,2]"), ANY_JSON_EVENT)).toEqual([1, 2]);
      });
    });
  }

  test("a form-encoded delivery (GitHub's other format) carries its JSON in the payload field, and the signature covers the form", () => {
    const raw = `payload=${encodeURIComponent('{"type":"ping","n":1}')}`;
    const body = enc.encode(raw);
    const d: SignedDelivery = {
      body,
      signature: hubSignature("s", body),
      contentType: "application/x-www-form-urlencoded",
      receivedAt: NOW,
    };
    expect(readSignedEvent({ scheme: "hub-sha256", setting: SETTING }, "s", d, PING)).toEqual({ type: "ping", n: 1 });
  });
});

describe("signature schemes against published values", () => {
  test("hmac() matches RFC 4231 (SHA-256) and RFC 2202 (SHA-1), test case 2", () => {
    const data = "what do ya want for nothing?";
    expect(encodeHexLowerCase(hmac("SHA-256", "Jefe", data))).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    expect(encodeHexLowerCase(hmac("SHA-1", "Jefe", enc.encode(data)))).toBe("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
  });

  test("standardWebhookSignature() matches the Standard Webhooks specification's example; the signer's headers verify", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = enc.encode('{"test": 2432232314}');
    expect(standardWebhookSignature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
    const headers = signStandardWebhook(secret, "msg_2", NOW, body);
    expect(headers.timestamp).toBe(String(unix(NOW)));
    expect(verifyStandardWebhook(secret, headers, body, NOW)).toBe(true);
    // A receiver rotating its secret accepts either of two signatures sent together.
    const both = { ...headers, signature: `v1,${"A".repeat(43)}= ${headers.signature}` };
    expect(verifyStandardWebhook(secret, both, body, NOW)).toBe(true);
  });

  test('stripeSignature() is the hex HMAC-SHA256 of "<t>.<body>" under the secret as written', () => {
    // printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
    expect(stripeSignature("whsec_test", "1700000000", enc.encode('{"id":"evt_1"}'))).toBe(
      "c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925",
    );
  });

  test("constantTimeEqual() compares bytes, and strings by code unit", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    // Two lone surrogates have the same UTF-8 replacement bytes but are different strings.
    expect(constantTimeEqual("\uD800", "\uDC00")).toBe(false);
    expect(constantTimeEqual("abc", "abc")).toBe(true);
  });
});
