import Stripe from "stripe";
import type { BillingProvider, CheckoutRequest, CheckoutSession, ProviderSubscription } from "../../core/billing/ports.ts";

export interface StripeSettings {
  /** `STRIPE_SECRET_KEY` (`sk_live_…`, `sk_test_…`). */
  secretKey: string;
  /** `STRIPE_API_BASE`: another origin speaking Stripe's API (stripe-mock in the tests); default Stripe's. */
  apiBase?: string | null;
  /** Per-request timeout; default 20 s. */
  timeoutMs?: number;
}

const iso = (unix: number | null | undefined): string | null => (typeof unix === "number" ? new Date(unix * 1000).toISOString() : null);

/**
 * The billing provider on Stripe's official client (docs/decisions/033-billing-provider-and-webhook.md):
 * one customer per workspace (metadata `workspace_id`), Checkout sessions whose line items carry
 * inline `price_data` from the plan catalogue (no prices to set up in the dashboard), and the
 * customer portal. Each create sends an idempotency key when it has one, so a retried request
 * creates nothing twice at Stripe.
 */
export function stripeBillingProvider(settings: StripeSettings): BillingProvider {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  const stripe = new Stripe(settings.secretKey, {
    timeout: settings.timeoutMs ?? 20_000,
    maxNetworkRetries: 2,
    ...(base
      ? {
        host: base.hostname,
        port: base.port || (base.protocol === "https:" ? "443" : "80"),
        protocol: base.protocol === "http:" ? "http" : "https",
      }
      : {}),
  });

  return {
    name: "stripe",

    async createCustomer(input) {
      const customer = await stripe.customers.create(
        { name: input.name, ...(input.email ? { email: input.email } : {}), metadata: { workspace_id: input.workspace_id } },
        { idempotencyKey: input.idempotency_key },
      );
      return { id: customer.id };
    },

    async createCheckoutSession(input: CheckoutRequest): Promise<CheckoutSession> {
      const p = input.purchase;
      const metadata: Record<string, string> = p.kind === "subscription"
        ? { workspace_id: input.workspace_id, kind: "subscription", plan: p.plan, interval: p.interval }
        : { workspace_id: input.workspace_id, kind: "credits", credits: String(p.credits) };
      const session = await stripe.checkout.sessions.create(
        {
          mode: p.kind === "subscription" ? "subscription" : "payment",
          customer: input.customer_id,
          client_reference_id: input.workspace_id,
          success_url: input.success_url,
          cancel_url: input.cancel_url,
          metadata,
          line_items: [{
            quantity: input.quantity,
            price_data: {
              currency: "eur",
              unit_amount: input.unit_amount_cents,
              product_data: { name: input.product_name },
              ...(p.kind === "subscription" ? { recurring: { interval: p.interval } } : {}),
            },
          }],
          ...(p.kind === "subscription" ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
        },
        input.idempotency_key ? { idempotencyKey: input.idempotency_key } : undefined,
      );
      if (!session.url) throw new Error(`Stripe returned Checkout session ${session.id} without a url`);
      return { id: session.id, url: session.url, expires_at: iso(session.expires_at)! };
    },

    async createPortalSession(input) {
      const session = await stripe.billingPortal.sessions.create({
        customer: input.customer_id,
        ...(input.return_url ? { return_url: input.return_url } : {}),
      });
      return { url: session.url };
    },

    async getSubscription(id: string): Promise<ProviderSubscription | null> {
      try {
        const sub = await stripe.subscriptions.retrieve(id);
        // Since API version 2025-03-31 the period is on the subscription's items.
        const item = sub.items?.data?.[0] as { current_period_start?: number; current_period_end?: number } | undefined;
        const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
        return {
          id: sub.id,
          status: sub.status,
          current_period_start: iso(item?.current_period_start ?? legacy.current_period_start),
          current_period_end: iso(item?.current_period_end ?? legacy.current_period_end),
        };
      } catch (e) {
        if (e instanceof Stripe.errors.StripeInvalidRequestError && e.statusCode === 404) return null;
        throw e;
      }
    },
  };
}
