import type { Principal } from "../access/mod.ts";
import { grantCredits, PLATFORM_OPERATOR, type PlatformOperator } from "../credits/mod.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { conflict, notFound, validationFailed } from "../kernel/errors.ts";
import { type OffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { applyContract, contractView, limitsWithContract } from "./contracts.ts";
import { addMonths } from "../billing/mod.ts";
import type { AcceptedOfferView, BillingOfferPage, BillingOfferView, CreateBillingOfferDto, ReissueBillingOfferDto } from "./dto.ts";
import {
  type BillingOffer,
  type Contract,
  defaultOfferExpiry,
  expiryInRange,
  isReissuable,
  type OfferStatus,
  offerStatus,
} from "./model.ts";
import { assertCanAcceptOffer, assertCanReadOffers, assertPlatformOperator } from "./policy.ts";
import type { OfferDeps, OfferFilter } from "./ports.ts";

export function offerView(offer: BillingOffer, now: Date): BillingOfferView {
  return { ...offer, status: offerStatus(offer, now) };
}

type Terms = Pick<BillingOffer, "plan" | "limits" | "price" | "term_months" | "radar_credits" | "expires_at" | "note">;

/** The terms' own rules beyond their schema: limits only for enterprise, an expiry within the next 365 days. */
function checkTerms(terms: Terms, now: Date): void {
  if (terms.limits !== null && terms.plan !== "enterprise") {
    throw validationFailed("Invalid offer: limits are an enterprise contract's; team and business have the catalogue's", [
      { path: "body.limits", message: "only with plan enterprise" },
    ]);
  }
  if (!expiryInRange(terms.expires_at, now)) {
    throw validationFailed("Invalid offer: expires_at must be within the next 365 days", [
      { path: "body.expires_at", message: "must be after now and at most 365 days ahead" },
    ]);
  }
}

const notOpen = (offer: BillingOffer, now: Date, action: string) => {
  const status = offerStatus(offer, now);
  return conflict(`Cannot ${action}: the offer is ${status}`, { status });
};

/** Issuing (or reissuing) an offer tells the workspace's owners (the `onOfferIssued` hook: mail). Never fails the issue. */
async function announce(deps: OfferDeps, workspace: Workspace, offer: BillingOffer): Promise<void> {
  await emit(deps, workspace.id, "billing.offer_issued", null, { offer_id: offer.id, plan: offer.plan, revision: offer.revision });
  const hook = deps.onOfferIssued;
  if (hook) await hook(deps, workspace, offer).catch(() => {});
}

/** The operator issues an offer: `open` at once (no draft), revision 1. Unknown workspace: 404. */
export async function createOffer(deps: OfferDeps, actor: PlatformOperator, dto: CreateBillingOfferDto): Promise<BillingOfferView> {
  assertPlatformOperator(actor, "issue an offer");
  const workspace = await deps.stores.workspaces.getById(dto.workspace_id);
  if (!workspace) throw notFound("Workspace");
  const now = deps.clock.now();
  const terms: Terms = {
    plan: dto.plan,
    limits: dto.limits ?? null,
    price: dto.price,
    term_months: dto.term_months,
    radar_credits: dto.radar_credits ?? null,
    expires_at: dto.expires_at ? new Date(dto.expires_at).toISOString() : defaultOfferExpiry(now),
    note: dto.note ?? null,
  };
  checkTerms(terms, now);
  const at = now.toISOString();
  const offer: BillingOffer = {
    id: uuidv7(now.getTime()),
    workspace_id: workspace.id,
    ...terms,
    status: "open",
    revision: 1,
    supersedes: null,
    superseded_by: null,
    created_at: at,
    updated_at: at,
    accepted_at: null,
    cancelled_at: null,
    superseded_at: null,
  };
  await deps.stores.offers.insert(offer);
  await announce(deps, workspace, offer);
  return offerView(offer, now);
}

export interface OfferListQuery {
  workspace_id?: string;
  status?: OfferStatus;
}

async function listOffers(deps: OfferDeps, filter: OfferFilter, page: OffsetPage): Promise<BillingOfferPage> {
  const now = deps.clock.now();
  const listed = await deps.stores.offers.list(filter, now.toISOString(), page);
  const r = toOffsetResult(listed.items.map((o) => offerView(o, now)), listed.total, page);
  return { offers: r.items, total: r.total, has_more: r.has_more };
}

/** The operator's list of offers, newest first, by workspace and status. */
export function platformOffers(deps: OfferDeps, actor: PlatformOperator, q: OfferListQuery, page: OffsetPage): Promise<BillingOfferPage> {
  assertPlatformOperator(actor, "list offers");
  return listOffers(deps, q, page);
}

async function findOffer(deps: OfferDeps, offerId: string, workspaceId?: string): Promise<BillingOffer> {
  const offer = await deps.stores.offers.get(offerId);
  if (!offer || (workspaceId !== undefined && offer.workspace_id !== workspaceId)) throw notFound("Offer");
  return offer;
}

export async function platformOffer(deps: OfferDeps, actor: PlatformOperator, offerId: string): Promise<BillingOfferView> {
  assertPlatformOperator(actor, "read an offer");
  return offerView(await findOffer(deps, offerId), deps.clock.now());
}

/** The operator withdraws an open offer; any other state (expired included) is 409 CONFLICT. */
export async function cancelOffer(deps: OfferDeps, actor: PlatformOperator, offerId: string): Promise<BillingOfferView> {
  assertPlatformOperator(actor, "cancel an offer");
  const offer = await findOffer(deps, offerId);
  const now = deps.clock.now();
  const closed = await deps.stores.offers.close(offer.id, "cancelled", now.toISOString());
  if (!closed) throw notOpen((await deps.stores.offers.get(offer.id)) ?? offer, now, "cancel the offer");
  await emit(deps, offer.workspace_id, "billing.offer_cancelled", null, { offer_id: offer.id });
  return offerView(closed, now);
}

/**
 * The operator reissues an open or expired offer with changed terms: a new open offer, revision
 * + 1, `supersedes` the old one, which atomically becomes `superseded` (`superseded_by`). Fields
 * left out carry over, but `expires_at` defaults anew; a plan other than enterprise drops carried
 * limits. Of two concurrent reissues of one offer exactly one succeeds, the other is 409.
 */
export async function reissueOffer(
  deps: OfferDeps,
  actor: PlatformOperator,
  offerId: string,
  dto: ReissueBillingOfferDto,
): Promise<BillingOfferView> {
  assertPlatformOperator(actor, "reissue an offer");
  const old = await findOffer(deps, offerId);
  const now = deps.clock.now();
  if (!isReissuable(old)) throw notOpen(old, now, "reissue the offer");
  const workspace = await deps.stores.workspaces.getById(old.workspace_id);
  if (!workspace) throw notFound("Workspace");
  const plan = dto.plan ?? old.plan;
  const terms: Terms = {
    plan,
    limits: dto.limits !== undefined ? dto.limits : (plan === "enterprise" ? old.limits : null),
    price: dto.price ?? old.price,
    term_months: dto.term_months ?? old.term_months,
    radar_credits: dto.radar_credits !== undefined ? dto.radar_credits : old.radar_credits,
    expires_at: dto.expires_at ? new Date(dto.expires_at).toISOString() : defaultOfferExpiry(now),
    note: dto.note !== undefined ? dto.note : old.note,
  };
  checkTerms(terms, now);
  const at = now.toISOString();
  const next: BillingOffer = {
    id: uuidv7(now.getTime()),
    workspace_id: old.workspace_id,
    ...terms,
    status: "open",
    revision: old.revision + 1,
    supersedes: old.id,
    superseded_by: null,
    created_at: at,
    updated_at: at,
    accepted_at: null,
    cancelled_at: null,
    superseded_at: null,
  };
  const done = await deps.stores.offers.supersede(old.id, next, at);
  if (!done) throw notOpen((await deps.stores.offers.get(old.id)) ?? old, now, "reissue the offer");
  await announce(deps, workspace, done.next);
  return offerView(done.next, now);
}

/** The workspace's offers (owner/admin), newest first. */
export function workspaceOffers(
  deps: OfferDeps,
  p: Principal,
  workspace: Workspace,
  q: { status?: OfferStatus },
  page: OffsetPage,
): Promise<BillingOfferPage> {
  assertCanReadOffers(p);
  return listOffers(deps, { workspace_id: workspace.id, status: q.status }, page);
}

/**
 * The contract an accepted offer makes: a function of the offer alone (it starts when the offer
 * was accepted), so applying it again after a crash writes the same contract.
 */
export function offerContract(offer: BillingOffer): Contract {
  const at = offer.accepted_at ?? offer.updated_at;
  return {
    workspace_id: offer.workspace_id,
    plan: offer.plan,
    limits: offer.plan === "enterprise" ? { ...(offer.limits ?? {}) } : null,
    price: offer.price,
    term_months: offer.term_months,
    note: offer.note,
    started_at: at,
    term_ends_at: addMonths(at, offer.term_months),
    source: "offer",
    offer_id: offer.id,
    updated_at: at,
  };
}

interface AppliedOffer {
  workspace: Workspace;
  contract: Contract;
  included: number;
  offerCredits: number;
}

/**
 * An accepted offer's effects, each idempotent (docs/decisions/043-billing-schedules-and-offer-effects.md):
 * its contract (kept unless already stored; not at all when a later contract replaced it
 * meanwhile), the plan, the plan's included credits for the contract's current period (ledger key
 * names the period) and the offer's `radar_credits` (ledger key `offer:<id>`); then
 * `billing.offer_accepted`, and the effects are settled. Run by the acceptance, and again by the
 * recovery when a crash left them pending: whatever ran before, each effect happens once.
 */
async function applyOfferEffects(deps: OfferDeps, workspace: Workspace, offer: BillingOffer, p: Principal | null): Promise<AppliedOffer> {
  const contract = offerContract(offer);
  const current = await deps.stores.contracts.get(workspace.id);
  let applied = { workspace, included: 0 };
  // A later contract (the operator's, another offer's) decided after this one: it stands.
  if (!(current && current.started_at > contract.started_at)) applied = await applyContract(deps, workspace, contract, "offer");
  let offerCredits = 0;
  if (offer.radar_credits) {
    const grant = await grantCredits(deps, PLATFORM_OPERATOR, applied.workspace, {
      amount: offer.radar_credits,
      reason: `Credits of accepted offer ${offer.id}`,
    }, { idempotencyKey: `offer:${offer.id}` });
    offerCredits = grant.entry.amount;
  }
  await emit(deps, workspace.id, "billing.offer_accepted", p, { offer_id: offer.id, plan: offer.plan });
  await deps.stores.offers.settleEffects(offer.id);
  return { workspace: applied.workspace, contract, included: applied.included, offerCredits };
}

/**
 * An owner accepts an open offer: it becomes `accepted` (compare-and-set: anything but an open
 * offer is 409, and of concurrent accepts one wins) with its effects recorded pending in the same
 * write; then the effects apply (applyOfferEffects): the contract is kept (invoiced outside the
 * service), the plan and its limits apply at once, the offer's `radar_credits` are granted once,
 * and the plan's included credits for the contract's first period. A crash in between leaves
 * them pending, and the billing sweep's job applies them (recoverOfferEffects).
 */
export async function acceptOffer(deps: OfferDeps, p: Principal, workspace: Workspace, offerId: string): Promise<AcceptedOfferView> {
  const offer = await findOffer(deps, offerId, workspace.id);
  assertCanAcceptOffer(p);
  const now = deps.clock.now();
  const accepted = await deps.stores.offers.close(offer.id, "accepted", now.toISOString());
  if (!accepted) throw notOpen((await deps.stores.offers.get(offer.id)) ?? offer, now, "accept the offer");
  const applied = await applyOfferEffects(deps, workspace, accepted, p);
  return {
    offer: offerView(accepted, now),
    workspace: { id: workspace.id, slug: workspace.slug, plan: applied.workspace.plan },
    contract: contractView(applied.contract, now),
    limits: limitsWithContract(applied.contract.plan, applied.contract),
    credits_granted: { offer: applied.offerCredits, included: applied.included },
  };
}

/**
 * The `billing.offer_effects` job: applies an accepted offer's effects that are still pending (a
 * crash after the acceptance). False when there was nothing to do (settled, not accepted, gone).
 */
export async function recoverOfferEffects(deps: OfferDeps, workspaceId: string, offerId: string): Promise<boolean> {
  if (!(await deps.stores.offers.hasPendingEffects(offerId))) return false;
  const offer = await deps.stores.offers.get(offerId);
  if (!offer || offer.status !== "accepted" || offer.workspace_id !== workspaceId) return false;
  const workspace = await deps.stores.workspaces.getById(workspaceId);
  if (!workspace) return false;
  await applyOfferEffects(deps, workspace, offer, null);
  return true;
}
