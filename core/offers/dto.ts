import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { PLANS } from "../workspaces/mod.ts";
import { BillingSummary, PlanLimitsView } from "../billing/mod.ts";
import { OFFER_INTERVALS, OFFER_PLANS, OFFER_STATUSES, TERM_MONTHS_MAX } from "./model.ts";

const strict = { additionalProperties: false } as const;
const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const ContractLimit = Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()], {
  description: "null or unset: unlimited.",
});

/** An enterprise contract's limits; each unset one is unlimited, `radar_credits_monthly` unset is 0. */
export const ContractLimitsDto = Type.Object({
  members: Type.Optional(ContractLimit),
  topics: Type.Optional(ContractLimit),
  collections: Type.Optional(ContractLimit),
  records: Type.Optional(ContractLimit),
  radar_credits_monthly: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Included radar credits each period (unset: 0)." }),
  ),
}, { ...strict, description: "An enterprise contract's limits: an unset (or null) one is unlimited; `radar_credits_monthly` unset is 0." });

export const OfferPriceDto = Type.Object({
  amount: Type.Integer({ minimum: 0, maximum: 10_000_000_000, description: "Minor units (euro cents) per interval." }),
  currency: Type.Literal("eur"),
  interval: literalUnion(OFFER_INTERVALS),
}, strict);

const TermMonths = Type.Integer({ minimum: 1, maximum: TERM_MONTHS_MAX, description: "The contract's term in months (1–60)." });
const RadarCredits = Type.Integer({ minimum: 1, maximum: 100_000_000, description: "Credits granted once, when the offer is accepted." });
const ExpiresAt = Type.String({
  format: "date-time",
  description: "When the offer expires: within the next 365 days; default 30 days from issue.",
});
const Note = Type.String({ maxLength: 2000 });

const offerTerms = {
  plan: literalUnion(OFFER_PLANS),
  limits: Type.Optional(ContractLimitsDto),
  price: OfferPriceDto,
  term_months: TermMonths,
  radar_credits: Type.Optional(RadarCredits),
  expires_at: Type.Optional(ExpiresAt),
  note: Type.Optional(Note),
};

export const CreateBillingOfferDto = Type.Object({
  workspace_id: Type.String({ format: "uuid", description: "The workspace the offer is made to." }),
  ...offerTerms,
}, { ...strict, description: "`limits` only with plan `enterprise`." });
export type CreateBillingOfferDto = Static<typeof CreateBillingOfferDto>;

/** A reissue's changes: any create field but `workspace_id`; what is left out carries over, `expires_at` defaults anew. */
export const ReissueBillingOfferDto = Type.Object({
  plan: Type.Optional(literalUnion(OFFER_PLANS)),
  limits: Type.Optional(Nullable(ContractLimitsDto)),
  price: Type.Optional(OfferPriceDto),
  term_months: Type.Optional(TermMonths),
  radar_credits: Type.Optional(Nullable(RadarCredits)),
  expires_at: Type.Optional(ExpiresAt),
  note: Type.Optional(Nullable(Note)),
}, {
  ...strict,
  description:
    "Fields left out carry over from the offer reissued (`expires_at` excepted: 30 days unless given); null clears `limits`, `radar_credits` or `note`.",
});
export type ReissueBillingOfferDto = Static<typeof ReissueBillingOfferDto>;

export const EnterprisePlanDto = Type.Object({
  limits: ContractLimitsDto,
  price: OfferPriceDto,
  term_months: TermMonths,
  note: Type.Optional(Note),
}, strict);
export type EnterprisePlanDto = Static<typeof EnterprisePlanDto>;

const PriceView = Type.Object({ amount: Type.Integer(), currency: Type.Literal("eur"), interval: literalUnion(OFFER_INTERVALS) });
const LimitsView = Type.Object({
  members: Type.Optional(Nullable(Type.Integer())),
  topics: Type.Optional(Nullable(Type.Integer())),
  collections: Type.Optional(Nullable(Type.Integer())),
  records: Type.Optional(Nullable(Type.Integer())),
  radar_credits_monthly: Type.Optional(Type.Integer()),
});

export const BillingOfferView = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  plan: literalUnion(OFFER_PLANS),
  limits: Nullable(LimitsView),
  price: PriceView,
  term_months: Type.Integer(),
  radar_credits: Nullable(Type.Integer()),
  expires_at: Timestamp,
  note: Nullable(Type.String()),
  status: literalUnion(OFFER_STATUSES, { description: "`expired`: open and past `expires_at` (read, never written)." }),
  revision: Type.Integer({ minimum: 1 }),
  supersedes: Nullable(Type.String()),
  superseded_by: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  accepted_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  superseded_at: Nullable(Timestamp),
});
export type BillingOfferView = Static<typeof BillingOfferView>;

export const BillingOfferPage = Type.Object({
  offers: Type.Array(BillingOfferView),
  total: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
});
export type BillingOfferPage = Static<typeof BillingOfferPage>;

export const ContractView = Type.Object({
  plan: literalUnion(OFFER_PLANS),
  limits: Nullable(LimitsView),
  price: PriceView,
  term_months: Type.Integer(),
  note: Nullable(Type.String()),
  started_at: Timestamp,
  term_ends_at: Timestamp,
  renewal_due: Type.Boolean({ description: "The term has ended: the plan stays, the contract is due for renewal." }),
  source: literalUnion(["operator", "offer"] as const),
  offer_id: Nullable(Type.String()),
});
export type ContractView = Static<typeof ContractView>;

const UsageOf = Type.Object({ used: Type.Integer({ minimum: 0 }), limit: Nullable(Type.Integer({ minimum: 0 })) });

export const PlatformWorkspace = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  plan: literalUnion(PLANS),
  created_at: Timestamp,
  billing: BillingSummary,
  limits: PlanLimitsView,
  usage: Type.Object({ members: UsageOf, topics: UsageOf, collections: UsageOf, records: UsageOf }),
  over_limit: Type.Array(literalUnion(["members", "topics", "collections", "records"] as const)),
  contract: Nullable(ContractView),
  renewal_due: Type.Boolean({ description: "Its contract's term has ended (the plan stays)." }),
});
export type PlatformWorkspace = Static<typeof PlatformWorkspace>;

export const PlatformWorkspacePage = Type.Object({
  workspaces: Type.Array(PlatformWorkspace),
  total: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
});
export type PlatformWorkspacePage = Static<typeof PlatformWorkspacePage>;

export const PlanView = Type.Object({
  id: literalUnion(PLANS),
  name: Type.String(),
  self_serve: Type.Boolean(),
  price: Nullable(Type.Object({
    currency: Type.Literal("eur"),
    month: Type.Integer({ description: "Minor units per month." }),
    year: Type.Integer({ description: "Minor units per year (ten months)." }),
  }, { description: "null: by contract." })),
  limits: PlanLimitsView,
});
export const PlanList = Type.Object({ plans: Type.Array(PlanView) });
export type PlanList = Static<typeof PlanList>;

export const EnterprisePlanView = Type.Object({
  workspace: Type.Object({ id: Type.String(), slug: Type.String(), plan: literalUnion(PLANS) }),
  contract: Nullable(ContractView),
  limits: PlanLimitsView,
});
export type EnterprisePlanView = Static<typeof EnterprisePlanView>;

export const AcceptedOfferView = Type.Object({
  offer: BillingOfferView,
  workspace: Type.Object({ id: Type.String(), slug: Type.String(), plan: literalUnion(PLANS) }),
  contract: ContractView,
  limits: PlanLimitsView,
  credits_granted: Type.Object({
    offer: Type.Integer({ minimum: 0, description: "The offer's `radar_credits`, granted once." }),
    included: Type.Integer({ minimum: 0, description: "The plan's included credits granted for the current period." }),
  }),
});
export type AcceptedOfferView = Static<typeof AcceptedOfferView>;
