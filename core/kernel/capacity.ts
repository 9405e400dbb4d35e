/**
 * Capacity of a workspace (issue #15, "Plans and limits"): the kinds whose creates a plan limits,
 * and the gate every create of them passes. Shared vocabulary (kernel), so that workspaces,
 * topics and collections need not import billing, which fills the gate
 * (`planLimitsGate`, core/billing/gate.ts, docs/decisions/031-plan-limits.md).
 */
export const CAPACITY_KINDS = ["members", "topics", "collections", "records"] as const;
export type CapacityKind = (typeof CAPACITY_KINDS)[number];

/** What the gate needs of a workspace: which one, and its plan. */
export interface CapacityHolder {
  id: string;
  plan: string;
}

/**
 * Counts what a workspace holds of each kind. `claim` takes `n` units before a create (refusing
 * with `PLAN_LIMIT_REACHED` when the plan admits no more and limits are enforced; nothing taken
 * then); `release` gives them back after a delete, or when the create failed.
 */
export interface CapacityGate {
  claim(workspace: CapacityHolder, kind: CapacityKind, n?: number): Promise<void>;
  release(workspace: CapacityHolder, kind: CapacityKind, n?: number): Promise<void>;
}

/**
 * Runs a create under one unit of `kind`: claimed first, released when `create` throws or returns
 * `false`-like refusal (`refused(result)`). Without a gate (an embedder that wired none), it just runs.
 */
export async function withCapacity<T>(
  gate: CapacityGate | undefined,
  workspace: CapacityHolder,
  kind: CapacityKind,
  create: () => Promise<T>,
  refused: (result: T) => boolean = () => false,
): Promise<T> {
  if (!gate) return create();
  await gate.claim(workspace, kind);
  let result: T;
  try {
    result = await create();
  } catch (e) {
    await gate.release(workspace, kind);
    throw e;
  }
  if (refused(result)) await gate.release(workspace, kind);
  return result;
}

/** Gives back `n` units after a delete (none when `n` is 0 or there is no gate). */
export async function releaseCapacity(
  gate: CapacityGate | undefined,
  workspace: CapacityHolder,
  kind: CapacityKind,
  n = 1,
): Promise<void> {
  if (gate && n > 0) await gate.release(workspace, kind, n);
}
