import type { Principal } from "../access/mod.ts";
import { AppError, conflict, validationFailed } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { assertCanManageWorkspace } from "../workspaces/mod.ts";
import { attachCustomer } from "./account.ts";
import type { CheckoutSessionDto, PortalSessionDto } from "./dto.ts";
import { CREDIT_PRICE_CENTS, PLAN_CATALOGUE, planPriceCents } from "./plans.ts";
import type { BillingDeps, BillingProvider, CheckoutPurchase, CheckoutSession } from "./ports.ts";

/**
 * Checkout and the billing portal (issue #15, docs/decisions/033-billing-provider-and-webhook.md).
 * Both check the caller (owner/admin, 403) and the body (400) before asking whether a provider
 * is configured (503 `BILLING_NOT_CONFIGURED`).
 */

function requireProvider(deps: { billingProvider?: BillingProvider }): BillingProvider {
  if (!deps.billingProvider) {
    throw new AppError(
      "BILLING_NOT_CONFIGURED",
      "Billing is not configured on this deployment (no STRIPE_SECRET_KEY): nothing is charged here, and owners set plans with PATCH /workspaces/{slug}/plan",
    );
  }
  return deps.billingProvider;
}

/** What the body buys: exactly one of a plan (with its interval) or credits. */
export function purchaseOf(dto: CheckoutSessionDto): CheckoutPurchase {
  if (dto.plan !== undefined && dto.credits !== undefined) {
    throw validationFailed("Invalid checkout: send either plan or credits, not both", [{ path: "/credits", message: "not with plan" }]);
  }
  if (dto.plan !== undefined) return { kind: "subscription", plan: dto.plan, interval: dto.interval ?? "month" };
  if (dto.interval !== undefined) {
    throw validationFailed("Invalid checkout: interval goes with plan", [{ path: "/interval", message: "only with plan" }]);
  }
  if (dto.credits !== undefined) return { kind: "credits", credits: dto.credits };
  throw validationFailed("Invalid checkout: send plan (team or business) or credits (100 to 1,000,000)", [
    { path: "/plan", message: "plan or credits is required" },
  ]);
}

type CheckoutDeps = BillingDeps;

/**
 * The workspace's customer at the provider, created on first use: one per workspace (the
 * provider's idempotency key names the workspace, and of two racing checkouts the first customer
 * recorded is kept).
 */
async function customerOf(deps: CheckoutDeps, provider: BillingProvider, p: Principal, ws: Workspace): Promise<string> {
  const account = await deps.stores.billingAccounts.get(ws.id);
  if (account?.customer_id) return account.customer_id;
  const who = p.identityId ? await deps.stores.identities.getById(p.identityId) : null;
  const created = await provider.createCustomer({
    workspace_id: ws.id,
    name: ws.name,
    email: who?.email ?? null,
    idempotency_key: `customer:${ws.id}`,
  });
  return attachCustomer(deps.stores.billingAccounts, ws.id, created.id, deps.clock.now().toISOString());
}

export async function createCheckoutSession(
  deps: CheckoutDeps,
  p: Principal,
  ws: Workspace,
  dto: CheckoutSessionDto,
  idempotencyKey: string | null,
): Promise<CheckoutSession> {
  assertCanManageWorkspace(p, "open a checkout");
  const purchase = purchaseOf(dto);
  const provider = requireProvider(deps);
  if (purchase.kind === "subscription") {
    if (ws.plan === "enterprise") {
      throw new AppError("PLAN_CHANGE_NOT_ALLOWED", "Cannot subscribe: the workspace is on an enterprise contract", [], {
        current_plan: ws.plan,
      });
    }
    const account = await deps.stores.billingAccounts.get(ws.id);
    if (account && account.subscription_id && ["active", "trialing", "past_due"].includes(account.status)) {
      throw conflict("Cannot open a subscription checkout: the workspace has a subscription; change it in the billing portal");
    }
  }
  const customer = await customerOf(deps, provider, p, ws);
  const sub = purchase.kind === "subscription";
  return provider.createCheckoutSession({
    workspace_id: ws.id,
    customer_id: customer,
    purchase,
    unit_amount_cents: sub ? planPriceCents(purchase.plan, purchase.interval)! : CREDIT_PRICE_CENTS,
    quantity: sub ? 1 : purchase.credits,
    product_name: sub
      ? `${PLAN_CATALOGUE[purchase.plan].name} plan (${purchase.interval === "year" ? "yearly" : "monthly"})`
      : "Radar credits",
    success_url: dto.success_url,
    cancel_url: dto.cancel_url,
    // The provider's own idempotency: a retried request (same key) opens one session.
    idempotency_key: idempotencyKey ? `checkout:${ws.id}:${idempotencyKey}` : null,
  });
}

export async function createPortalSession(deps: BillingDeps, p: Principal, ws: Workspace, dto: PortalSessionDto): Promise<{ url: string }> {
  assertCanManageWorkspace(p, "open the billing portal");
  const provider = requireProvider(deps);
  const account = await deps.stores.billingAccounts.get(ws.id);
  if (!account?.customer_id) {
    throw new AppError("NO_BILLING_ACCOUNT", "The workspace has no billing account yet: open a checkout first");
  }
  return provider.createPortalSession({ customer_id: account.customer_id, return_url: dto.return_url ?? null });
}
