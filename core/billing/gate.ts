import type { CapacityGate, CapacityHolder, CapacityKind } from "../kernel/capacity.ts";
import { AppError } from "../kernel/errors.ts";
import type { Plan } from "../workspaces/mod.ts";
import { limitsOf, type PlanLimits } from "./plans.ts";
import type { ContractTermsReader, PlanUsageStore } from "./ports.ts";

/** `PLAN_LIMITS`: `enforce` refuses creates past a limit (a commercial deployment); `off` (default) counts only. */
export type PlanLimitsMode = "enforce" | "off";
export const PLAN_LIMITS_MODES = ["enforce", "off"] as const;

/**
 * The limits in force for a workspace: its plan's, or for enterprise its contract's
 * (`contract_limits`, from the contract store: unset ones unlimited, credits 0; ADR 034).
 */
export function workspaceLimits(workspace: { plan: string; contract_limits?: Partial<PlanLimits> | null }): PlanLimits {
  return limitsOf(workspace.plan as Plan, workspace.contract_limits ?? null);
}

/** The refusal of a create past a plan's limit: 402 with the limit's name, the plan, what it allows and what is used. */
export function planLimitReached(kind: CapacityKind, plan: string, allowed: number, used: number): AppError {
  return new AppError(
    "PLAN_LIMIT_REACHED",
    `Cannot create: the ${plan} plan allows ${allowed} ${kind} and the workspace has ${used}`,
    [],
    { limit: kind, plan, allowed, used },
  );
}

/**
 * The capacity gate of core/kernel/capacity.ts over a usage store: every create claims, every
 * delete releases, so usage is counted in both modes; under `enforce` a claim past the plan's
 * limit (an enterprise contract's, read from `contracts`) is refused (402 `PLAN_LIMIT_REACHED`, nothing taken).
 */
export function planLimitsGate(store: PlanUsageStore, mode: PlanLimitsMode, contracts?: ContractTermsReader): CapacityGate {
  const limit = async (workspace: CapacityHolder, kind: CapacityKind): Promise<number | null> => {
    if (mode !== "enforce") return null;
    // An enterprise workspace's limits are its contract's: one more read, only under enforcement.
    const contract = workspace.plan === "enterprise" && contracts ? await contracts.get(workspace.id) : null;
    return workspaceLimits({ plan: workspace.plan, contract_limits: contract?.limits })[kind];
  };
  return {
    limit,
    refusal: (workspace, kind, allowed, used) => planLimitReached(kind, workspace.plan, allowed, used),
    async claim(workspace: CapacityHolder, kind: CapacityKind, n = 1) {
      const allowed = await limit(workspace, kind);
      const outcome = await store.claim(workspace.id, kind, n, allowed);
      if (!outcome.ok) throw planLimitReached(kind, workspace.plan, allowed!, outcome.used);
    },
    async release(workspace: CapacityHolder, kind: CapacityKind, n = 1) {
      await store.release(workspace.id, kind, n);
    },
  };
}
