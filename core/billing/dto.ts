import { type Static, Type } from "@sinclair/typebox";
import { PLANS } from "../workspaces/mod.ts";
import { literalUnion } from "../kernel/literal-union.ts";

const Limit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "null: unlimited." });
const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });

export const PlanLimitsView = Type.Object({
  members: Limit,
  topics: Limit,
  collections: Limit,
  records: Limit,
  radar_credits_monthly: Type.Integer({ minimum: 0, description: "Radar credits included each period (0: none)." }),
});

const UsageOf = Type.Object({ used: Type.Integer({ minimum: 0 }), limit: Limit });

export const BILLING_STATUSES = ["none", "active", "trialing", "past_due", "canceled"] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

/**
 * The workspace's billing account as far as usage shows it (`none` and null until a checkout or
 * the billing webhook records one).
 */
export const BillingSummary = Type.Object({
  status: literalUnion(BILLING_STATUSES),
  current_period_end: Type.Union([Timestamp, Type.Null()]),
});
export type BillingSummary = Static<typeof BillingSummary>;

export const CommercialUsage = Type.Object({
  plan: literalUnion(PLANS),
  period: Type.Object({ start: Timestamp, end: Timestamp }, {
    description: "The subscription's or contract's current period, else the calendar month (UTC).",
  }),
  limits: PlanLimitsView,
  usage: Type.Object({
    members: UsageOf,
    topics: UsageOf,
    collections: UsageOf,
    records: UsageOf,
    radar_credits: Type.Object({
      included: Type.Integer({ minimum: 0, description: "Included credits granted for this period." }),
      used: Type.Integer({ minimum: 0, description: "Credits charged this period (captures and debits)." }),
      balance: Type.Integer({ description: "The ledger's balance now." }),
    }),
  }),
  over_limit: Type.Array(literalUnion(["members", "topics", "collections", "records"] as const), {
    description: "Kinds whose usage is beyond the plan's limit (after a downgrade): their creates are refused under enforcement.",
  }),
  billing: BillingSummary,
});
export type CommercialUsage = Static<typeof CommercialUsage>;

const ReturnUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, pattern: "^https?://[^\\s]+$", description });

/** A Checkout session to open: exactly one of `plan` (optionally with `interval`) or `credits`. */
export const CheckoutSessionDto = Type.Object({
  success_url: ReturnUrl("Where the payer lands after paying (http or https)."),
  cancel_url: ReturnUrl("Where the payer lands after leaving Checkout (http or https)."),
  plan: Type.Optional(literalUnion(["team", "business"] as const, { description: "A subscription to this plan. Not with `credits`." })),
  interval: Type.Optional(
    literalUnion(["month", "year"] as const, { description: "With `plan`: billed monthly (default) or yearly (a year costs 10 months)." }),
  ),
  credits: Type.Optional(
    Type.Integer({ minimum: 100, maximum: 1_000_000, description: "Radar credits bought once, €0.05 each. Not with `plan`." }),
  ),
}, { additionalProperties: false });
export type CheckoutSessionDto = Static<typeof CheckoutSessionDto>;

export const CheckoutSessionView = Type.Object({
  id: Type.String({ description: "The provider's session id." }),
  url: Type.String({ description: "Where to send the payer." }),
  expires_at: Timestamp,
});

export const PortalSessionDto = Type.Object({
  return_url: Type.Optional(ReturnUrl("Where the portal's back link leads; default the provider's configured one.")),
}, { additionalProperties: false });
export type PortalSessionDto = Static<typeof PortalSessionDto>;

export const PortalSessionView = Type.Object({
  url: Type.String({ description: "The provider's portal session for this workspace's customer." }),
});
