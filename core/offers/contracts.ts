import { addMonths, contractPeriod, grantIncludedCredits, limitsOf, type PlanLimits, type PlanSource } from "../billing/mod.ts";
import type { PlatformOperator } from "../credits/mod.ts";
import { emit } from "../events/mod.ts";
import { conflict } from "../kernel/errors.ts";
import type { Plan, Workspace } from "../workspaces/mod.ts";
import type { ContractView, EnterprisePlanDto, EnterprisePlanView } from "./dto.ts";
import { type Contract, renewalDue } from "./model.ts";
import { assertPlatformOperator } from "./policy.ts";
import type { OfferDeps } from "./ports.ts";
import { scheduleIncludedCredits } from "./included-schedule.ts";

export function contractView(c: Contract, now: Date): ContractView {
  return {
    plan: c.plan,
    limits: c.limits,
    price: c.price,
    term_months: c.term_months,
    note: c.note,
    started_at: c.started_at,
    term_ends_at: c.term_ends_at,
    renewal_due: renewalDue(c, now),
    source: c.source,
    offer_id: c.offer_id,
  };
}

/** The limits in force: the plan's, or for enterprise its contract's (unset ones unlimited, credits 0; no contract: unlimited). */
export function limitsWithContract(plan: Plan, contract: Contract | null): PlanLimits {
  return limitsOf(plan, plan === "enterprise" ? (contract?.limits ?? null) : null);
}

/** Reads the workspace's contract when its limits depend on one (enterprise), else none. */
export async function workspaceLimitsOf(deps: OfferDeps, workspace: Workspace): Promise<PlanLimits> {
  const contract = workspace.plan === "enterprise" ? await deps.stores.contracts.get(workspace.id) : null;
  return limitsWithContract(workspace.plan, contract);
}

/** Whether `current` is `contract` already (an accepted offer's effects applied again after a crash). */
const sameContract = (current: Contract | null, contract: Contract): boolean =>
  current !== null && current.started_at === contract.started_at && current.source === contract.source &&
  current.offer_id === contract.offer_id;

/**
 * Keeps the contract (with its included credits next due at its second period's start, queued
 * as a job), moves the workspace to its plan (publishing `workspace.plan_changed` with its source
 * when it changes) and grants the plan's included credits for the contract's current period.
 * Applying one contract again writes nothing new: the stored one is kept with its schedule, the
 * plan is already moved, the grant's key names the period.
 */
export async function applyContract(
  deps: OfferDeps,
  workspace: Workspace,
  contract: Contract,
  source: Extract<PlanSource, "offer" | "operator">,
): Promise<{ workspace: Workspace; included: number }> {
  const now = deps.clock.now();
  const period = contractPeriod(contract, now);
  if (!sameContract(await deps.stores.contracts.get(workspace.id), contract)) {
    await deps.stores.contracts.put(contract, period.end);
    await scheduleIncludedCredits(deps, { workspace_id: workspace.id, contract_started_at: contract.started_at, due_at: period.end });
  }
  let next = workspace;
  if (workspace.plan !== contract.plan) {
    next = { ...workspace, plan: contract.plan, updated_at: now.toISOString() };
    await deps.stores.workspaces.update(next);
    await emit(deps, workspace.id, "workspace.plan_changed", null, { from: workspace.plan, to: next.plan, source });
  }
  const grant = await grantIncludedCredits(deps, next, contract.plan, period, source, contract.limits);
  return { workspace: next, included: grant.granted };
}

/**
 * The operator sets an enterprise contract: plan `enterprise` with its limits at once, its
 * included credits granted for the contract's first period. After the term the plan stays; the
 * contract reads `renewal_due`. Setting it again replaces the contract (a new term from now).
 */
export async function setEnterprisePlan(
  deps: OfferDeps,
  actor: PlatformOperator,
  workspace: Workspace,
  dto: EnterprisePlanDto,
): Promise<EnterprisePlanView> {
  assertPlatformOperator(actor, "set an enterprise plan");
  const now = deps.clock.now().toISOString();
  const contract: Contract = {
    workspace_id: workspace.id,
    plan: "enterprise",
    limits: { ...dto.limits },
    price: dto.price,
    term_months: dto.term_months,
    note: dto.note ?? null,
    started_at: now,
    term_ends_at: addMonths(now, dto.term_months),
    source: "operator",
    offer_id: null,
    updated_at: now,
  };
  const applied = await applyContract(deps, workspace, contract, "operator");
  return {
    workspace: { id: workspace.id, slug: workspace.slug, plan: applied.workspace.plan },
    contract: contractView(contract, deps.clock.now()),
    limits: limitsWithContract("enterprise", contract),
  };
}

/** The operator ends an enterprise plan: the workspace returns to free, its contract is dropped. Not enterprise: 409. */
export async function endEnterprisePlan(deps: OfferDeps, actor: PlatformOperator, workspace: Workspace): Promise<EnterprisePlanView> {
  assertPlatformOperator(actor, "end an enterprise plan");
  if (workspace.plan !== "enterprise") {
    throw conflict(`Cannot end the enterprise plan: the workspace is on ${workspace.plan}`, { current_plan: workspace.plan });
  }
  await deps.stores.contracts.delete(workspace.id);
  const next: Workspace = { ...workspace, plan: "free", updated_at: deps.clock.now().toISOString() };
  await deps.stores.workspaces.update(next);
  await emit(deps, workspace.id, "workspace.plan_changed", null, { from: workspace.plan, to: "free", source: "operator" });
  return { workspace: { id: next.id, slug: next.slug, plan: next.plan }, contract: null, limits: limitsOf("free") };
}
