import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stripeBillingProvider } from "../../adapters/stripe/billing-provider.ts";
import type { BillingProvider } from "../../core/billing/ports.ts";
import { startStripeMock, type StripeMock } from "../support/stripe-mock.ts";

/**
 * The Stripe adapter of the BillingProvider port against stripe-mock, which checks every request
 * against Stripe's OpenAPI spec (an unknown or malformed parameter is a 400 there) and answers
 * with fixtures. It keeps no state, so what comes back is the fixture's shape, not our values.
 */
let mock: StripeMock;
let provider: BillingProvider;

beforeAll(async () => {
  mock = await startStripeMock();
  provider = stripeBillingProvider({ secretKey: "sk_test_123", apiBase: mock.url });
}, 180_000);
afterAll(async () => {
  await mock?.stop();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("stripe adapter (against stripe-mock)", () => {
  test("createCustomer() creates a customer with the workspace in its metadata (idempotency key sent)", async () => {
    const c = await provider.createCustomer({
      workspace_id: "ws-1",
      name: "Acme",
      email: "owner@example.com",
      idempotency_key: "customer:ws-1",
    });
    expect(c.id).toMatch(/^cus_/);
  });

  test("createCheckoutSession(): a subscription with inline price_data, monthly and yearly; credits as a one-time payment", async () => {
    for (const interval of ["month", "year"] as const) {
      const s = await provider.createCheckoutSession({
        workspace_id: "ws-1",
        customer_id: "cus_123",
        purchase: { kind: "subscription", plan: "team", interval },
        unit_amount_cents: interval === "year" ? 49_000 : 4_900,
        quantity: 1,
        product_name: "Team plan",
        success_url: "https://app.example.com/ok",
        cancel_url: "https://app.example.com/cancel",
        idempotency_key: `checkout-${interval}`,
      });
      expect(s.id).toMatch(/^cs_/);
      expect(typeof s.url).toBe("string");
      expect(s.expires_at).toMatch(ISO);
    }
    const credits = await provider.createCheckoutSession({
      workspace_id: "ws-1",
      customer_id: "cus_123",
      purchase: { kind: "credits", credits: 500 },
      unit_amount_cents: 5,
      quantity: 500,
      product_name: "Radar credits",
      success_url: "https://app.example.com/ok",
      cancel_url: "https://app.example.com/cancel",
      idempotency_key: null,
    });
    expect(credits.id).toMatch(/^cs_/);
  });

  test("createPortalSession() answers the portal's url, with or without a return url", async () => {
    expect((await provider.createPortalSession({ customer_id: "cus_123", return_url: "https://app.example.com/billing" })).url).toMatch(
      /^https?:\/\//,
    );
    expect((await provider.createPortalSession({ customer_id: "cus_123", return_url: null })).url).toMatch(/^https?:\/\//);
  });

  test("getSubscription() reads the status and the current period", async () => {
    const sub = await provider.getSubscription("sub_123");
    expect(sub).not.toBeNull();
    expect(sub!.id).toMatch(/^sub_/);
    expect(typeof sub!.status).toBe("string");
  });

  test("an unreachable API surfaces as an error (after the client's retries)", async () => {
    const bad = stripeBillingProvider({ secretKey: "sk_test_123", apiBase: "http://127.0.0.1:1" });
    await expect(bad.createPortalSession({ customer_id: "cus_123", return_url: null })).rejects.toThrow();
  });
});
