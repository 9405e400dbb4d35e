import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { grantCredits, PLATFORM_OPERATOR } from "../credits/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import { emit } from "../events/mod.ts";
import { validationFailed } from "../kernel/errors.ts";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { deliverOnce, readSignedEvent, type SignedBy, type WebhookHandler, type WebhookStores } from "../webhooks/mod.ts";
import type { Plan, Workspace } from "../workspaces/mod.ts";
import { applyAccountChange, type BillingAccount, type BillingAccountChange, updateAccount } from "./account.ts";
import { grantIncludedCredits } from "./included-credits.ts";
import { periodAt } from "./period.ts";
import type { BillingDeps } from "./ports.ts";

/**
 * `POST /webhooks/billing` (issue #15, docs/decisions/033-billing-provider-and-webhook.md): Stripe
 * events signed in `billing-signature` (`t=…,v1=…`). The event goes through the webhook inbox
 * (ADR 042): recorded with its body under its id, applied, marked; a redelivery of an applied one
 * is `duplicate`, one left unfinished is applied again (every effect is idempotent: the account's
 * compare-and-set re-applies an event of the same `created`, credit grants and mails are keyed by
 * the event or the period). Subscription-state events carry their `created`; one older than the
 * last applied to the workspace is `stale`, nothing changed. No event changes an enterprise
 * workspace's plan.
 */
export const BILLING_WEBHOOK_SOURCE = "billing";

export const BILLING_WEBHOOK_OUTCOMES = ["processed", "duplicate", "ignored", "stale"] as const;
export type BillingWebhookOutcome = (typeof BILLING_WEBHOOK_OUTCOMES)[number];

export const BillingWebhookResult = Type.Object({
  received: Type.Literal(true),
  event_id: Type.String(),
  type: Type.String(),
  outcome: literalUnion(BILLING_WEBHOOK_OUTCOMES, {
    description:
      "`processed`; `duplicate` (this event id was received before: nothing done); `ignored` (another type, an unknown workspace or customer, an unpaid checkout, an enterprise workspace); `stale` (older than the last event applied to the workspace).",
  }),
});
export type BillingWebhookResult = Static<typeof BillingWebhookResult>;

const Meta = Type.Record(Type.String(), Type.String());
const Id = Type.Union([Type.String({ maxLength: 255 }), Type.Null()]);
/** Stripe's event envelope; the object is read leniently (fields this receiver uses, others kept). */
const Envelope = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.String({ minLength: 1, maxLength: 200 }),
  created: Type.Integer({ minimum: 0 }),
  data: Type.Object({ object: Type.Object({}) }),
});

const BillingEvent = { schema: Envelope, what: "billing event: expected a Stripe event {id, type, created, data.object}" };
const SIGNED_BY: SignedBy = { scheme: "stripe", setting: "BILLING_WEBHOOK_SECRET" };

const CheckoutObject = Type.Object({
  id: Type.String(),
  client_reference_id: Type.Optional(Id),
  customer: Type.Optional(Id),
  subscription: Type.Optional(Id),
  payment_status: Type.Optional(Type.String()),
  metadata: Type.Optional(Type.Union([Meta, Type.Null()])),
});
const SubscriptionObject = Type.Object({
  id: Type.String(),
  customer: Type.Optional(Id),
  status: Type.String(),
  metadata: Type.Optional(Type.Union([Meta, Type.Null()])),
  current_period_start: Type.Optional(Type.Integer()),
  current_period_end: Type.Optional(Type.Integer()),
  items: Type.Optional(Type.Object({
    data: Type.Array(
      Type.Object({ current_period_start: Type.Optional(Type.Integer()), current_period_end: Type.Optional(Type.Integer()) }),
    ),
  })),
});
const InvoiceObject = Type.Object({ id: Type.String(), customer: Type.Optional(Id) });

export const BILLING_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

type Deps = BillingDeps & CoreDeps<WebhookStores>;
interface Event {
  id: string;
  type: string;
  created: number;
}

function parse<T extends Parameters<typeof Value.Check>[0]>(schema: T, value: unknown, what: string): Static<T> {
  if (!Value.Check(schema, value)) {
    throw validationFailed(`Invalid ${what}`, schemaErrorDetails(Value.Errors(schema, value), { limit: 1 }));
  }
  return value as Static<T>;
}

const isoOf = (unix: number | undefined) => (unix === undefined ? undefined : new Date(unix * 1000).toISOString());
const SELF_SERVE_PAID = ["team", "business"] as const;
const paidPlan = (v: string | undefined): "team" | "business" | null =>
  (SELF_SERVE_PAID as readonly string[]).includes(v ?? "") ? (v as "team" | "business") : null;

export async function receiveBillingWebhook(
  deps: Deps,
  secret: string,
  signature: string | null,
  body: Uint8Array,
): Promise<BillingWebhookResult> {
  const event = readSignedEvent(SIGNED_BY, secret, { signature, body, receivedAt: deps.clock.now() }, BillingEvent);
  const answer = (outcome: BillingWebhookOutcome): BillingWebhookResult => ({
    received: true,
    event_id: event.id,
    type: event.type,
    outcome,
  });
  if (!(BILLING_EVENT_TYPES as readonly string[]).includes(event.type)) return answer("ignored");
  // The object is checked now (a malformed one is 400, nothing recorded), and again when applied.
  objectOf(event);
  const outcome = await deliverOnce(deps, BILLING_WEBHOOK_SOURCE, event.id, JSON.stringify(event), (p) => applyRecorded(deps, p), (o) => o);
  return answer(outcome);
}

type Parsed = Static<typeof Envelope>;

function objectOf(event: Parsed) {
  const object = event.data.object as Record<string, unknown>;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return { kind: "checkout" as const, object: parse(CheckoutObject, object, `${event.type} object`) };
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return { kind: "subscription" as const, object: parse(SubscriptionObject, object, `${event.type} object`) };
    default:
      return { kind: "invoice" as const, object: parse(InvoiceObject, object, `${event.type} object`) };
  }
}

/** Applies a recorded event (checked when it was received). */
async function applyRecorded(deps: Deps, payload: string): Promise<BillingWebhookOutcome> {
  const event = JSON.parse(payload) as Parsed;
  const o = objectOf(event);
  if (o.kind === "checkout") return checkoutPaid(deps, event, o.object);
  if (o.kind === "subscription") return subscriptionChanged(deps, event, o.object);
  return invoiceEvent(deps, event, o.object);
}

/** The recovery sweep's way in (ADR 042). */
export const billingWebhookHandler: WebhookHandler<Deps> = {
  source: BILLING_WEBHOOK_SOURCE,
  apply: (deps, payload) => applyRecorded(deps, payload),
};

/** The plan an account pays for: its plan; free once canceled; null when it names none (a credits-only customer). */
const planOfAccount = (a: BillingAccount): Plan | null => (a.status === "canceled" ? "free" : a.plan);

/** Rounds of `settlePlan` before giving up (each one means a newer event's account came in meanwhile). */
const SETTLE_ROUNDS = 10;

/**
 * Brings the workspace's plan to the one its billing account names (the newest applied event's),
 * publishing `workspace.plan_changed`. Both are read afresh and the account is read again after
 * the write: when a newer event's account came in meanwhile, it settles again. Every event settles
 * after its own account write, so of concurrent events the newest one's plan is the one left,
 * whatever order their writes land in (an older event's plan never overwrites a newer one's).
 */
async function settlePlan(deps: Deps, workspaceId: string): Promise<{ ws: Workspace; account: BillingAccount } | null> {
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const account = await deps.stores.billingAccounts.get(workspaceId);
    const ws = await deps.stores.workspaces.getById(workspaceId);
    if (!account || !ws) return null;
    const plan = planOfAccount(account);
    if (!plan || ws.plan === plan || ws.plan === "enterprise") return { ws, account };
    const next: Workspace = { ...ws, plan, updated_at: deps.clock.now().toISOString() };
    await deps.stores.workspaces.update(next);
    await emit(deps, ws.id, "workspace.plan_changed", null, { from: ws.plan, to: plan, source: "billing" });
    if ((await deps.stores.billingAccounts.get(workspaceId))?.version === account.version) return { ws: next, account };
  }
  throw new Error(`Cannot settle the plan of workspace ${workspaceId}: too many concurrent billing events`);
}

/** The included credits of the settled plan's period (keyed by the period: granting again grants nothing). */
async function grantSettled(deps: Deps, settled: { ws: Workspace; account: BillingAccount } | null): Promise<void> {
  if (!settled || !paidPlan(settled.ws.plan)) return;
  await grantIncluded(deps, settled.ws, settled.ws.plan, settled.account);
}

/** Applies `change` unless the event is older than the last applied; null: stale. */
async function applyEvent(deps: Deps, ws: Workspace, event: Event, change: BillingAccountChange): Promise<BillingAccount | null> {
  const at = deps.clock.now().toISOString();
  const { written } = await updateAccount(
    deps.stores.billingAccounts,
    ws.id,
    (c) => applyAccountChange(c, ws.id, change, event.created, at),
  );
  return written;
}

async function grantIncluded(deps: Deps, ws: Workspace, plan: Plan, account: BillingAccount): Promise<void> {
  const current = account.current_period_start && account.current_period_end
    ? { start: account.current_period_start, end: account.current_period_end }
    : null;
  await grantIncludedCredits(deps, ws, plan, periodAt(deps.clock.now(), current), "billing");
}

async function checkoutPaid(deps: Deps, event: Event, s: Static<typeof CheckoutObject>): Promise<BillingWebhookOutcome> {
  // An unpaid session (a delayed payment method) waits for checkout.session.async_payment_succeeded.
  if (event.type === "checkout.session.completed" && s.payment_status === "unpaid") return "ignored";
  const meta = s.metadata ?? {};
  const workspaceId = s.client_reference_id ?? meta.workspace_id;
  const ws = workspaceId ? await deps.stores.workspaces.getById(workspaceId) : null;
  if (!ws) return "ignored";
  const customer = s.customer ?? undefined;

  if (meta.kind === "credits") {
    const credits = Number(meta.credits);
    if (!Number.isInteger(credits) || credits < 1 || credits > 1_000_000) return "ignored";
    if (customer) {
      await updateAccount(
        deps.stores.billingAccounts,
        ws.id,
        (c) => c?.customer_id ? null : applyAccountChange(c, ws.id, { customer_id: customer }, null, deps.clock.now().toISOString()),
      );
    }
    await grantCredits(deps, PLATFORM_OPERATOR, ws, { amount: credits, reason: `Bought through checkout (${s.id})` }, {
      idempotencyKey: `billing.checkout:${event.id}`,
    });
    return "processed";
  }
  if (meta.kind !== "subscription") return "ignored";
  const plan = paidPlan(meta.plan);
  if (!plan || ws.plan === "enterprise") return "ignored";
  // The subscription's period, when the provider can tell it (the included credits are the period's).
  const sub = s.subscription && deps.billingProvider ? await deps.billingProvider.getSubscription(s.subscription) : null;
  const account = await applyEvent(deps, ws, event, {
    customer_id: customer,
    subscription_id: s.subscription ?? undefined,
    status: "active",
    plan,
    ...(sub?.current_period_start && sub.current_period_end
      ? { current_period_start: sub.current_period_start, current_period_end: sub.current_period_end }
      : {}),
  });
  if (!account) return "stale";
  await grantSettled(deps, await settlePlan(deps, ws.id));
  return "processed";
}

async function workspaceOf(deps: Deps, meta: Record<string, string> | null | undefined, customer: string | null | undefined) {
  const byMeta = meta?.workspace_id ? await deps.stores.workspaces.getById(meta.workspace_id) : null;
  if (byMeta) return byMeta;
  const account = customer ? await deps.stores.billingAccounts.getByCustomer(customer) : null;
  return account ? deps.stores.workspaces.getById(account.workspace_id) : null;
}

async function subscriptionChanged(deps: Deps, event: Event, s: Static<typeof SubscriptionObject>): Promise<BillingWebhookOutcome> {
  const ws = await workspaceOf(deps, s.metadata, s.customer);
  if (!ws || ws.plan === "enterprise") return "ignored";
  const item = s.items?.data[0];
  const period = {
    current_period_start: isoOf(item?.current_period_start ?? s.current_period_start),
    current_period_end: isoOf(item?.current_period_end ?? s.current_period_end),
  };
  const base = { customer_id: s.customer ?? undefined, subscription_id: s.id };
  let change: BillingAccountChange;
  let plan: Plan | null;
  if (event.type === "customer.subscription.deleted" || s.status === "canceled" || s.status === "unpaid") {
    change = { ...base, status: "canceled", plan: null };
    plan = "free";
  } else if (s.status === "active" || s.status === "trialing") {
    plan = paidPlan(s.metadata?.plan ?? undefined);
    change = { ...base, ...period, status: s.status, ...(plan ? { plan } : {}) };
  } else if (s.status === "past_due") {
    change = { ...base, ...period, status: "past_due" };
    plan = null;
  } else {
    // incomplete, incomplete_expired, paused: nothing this service shows.
    return "ignored";
  }
  const account = await applyEvent(deps, ws, event, change);
  if (!account) return "stale";
  if (!plan) return "processed";
  const settled = await settlePlan(deps, ws.id);
  // A new period (a renewal) or a plan with more included credits (an upgrade): the period's grant.
  if (plan !== "free") await grantSettled(deps, settled);
  return "processed";
}

async function invoiceEvent(deps: Deps, event: Event, invoice: Static<typeof InvoiceObject>): Promise<BillingWebhookOutcome> {
  const known = invoice.customer ? await deps.stores.billingAccounts.getByCustomer(invoice.customer) : null;
  const ws = known ? await deps.stores.workspaces.getById(known.workspace_id) : null;
  if (!ws || ws.plan === "enterprise") return "ignored";
  const failed = event.type === "invoice.payment_failed";
  const account = await applyEvent(deps, ws, event, { status: failed ? "past_due" : "active" });
  if (!account) return "stale";
  if (failed) {
    await emit(deps, ws.id, "billing.payment_failed", null, { invoice_id: invoice.id, plan: ws.plan, status: "past_due" });
    if (deps.onPaymentFailed) await deps.onPaymentFailed(deps, ws, event.id);
  }
  return "processed";
}
