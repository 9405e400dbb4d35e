/**
 * Capacity of a workspace: the kinds whose creates a plan limits,
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
  /**
   * The most units of `kind` the workspace may hold now (null: no limit, as under
   * `PLAN_LIMITS=off`): what a store that claims within its own write checks (`CapacityClaim`).
   */
  limit(workspace: CapacityHolder, kind: CapacityKind): Promise<number | null>;
  /** The refusal of a create that found the workspace holding `used` of the `allowed` (`PLAN_LIMIT_REACHED`). */
  refusal(workspace: CapacityHolder, kind: CapacityKind, allowed: number, used: number): Error;
}

/**
 * One unit of `kind` claimed by a store in the same atomic write as the create
 * (docs/decisions/058-record-create-claims-in-its-insert.md): taken only when `used + 1 ≤ limit`
 * (always when `limit` is null), and only with the item; an item not written takes nothing.
 */
export interface CapacityClaim {
  kind: CapacityKind;
  limit: number | null;
}

/** What such a store answers when the workspace had no room: nothing written, `used` units held. */
export interface CapacityRefusal {
  refused: "capacity";
  used: number;
}

export function isCapacityRefusal(x: unknown): x is CapacityRefusal {
  return typeof x === "object" && x !== null && (x as { refused?: unknown }).refused === "capacity";
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

/**
 * Runs a create whose store claims its unit in the create's own write (`claiming`), so that one
 * statement both counts and writes: nothing to give back when the write fails, and no round trip
 * for the claim. Without it (a store that cannot, or no gate), as `withCapacity`.
 */
export async function withCapacityInWrite<T>(
  gate: CapacityGate | undefined,
  workspace: CapacityHolder,
  kind: CapacityKind,
  create: () => Promise<T>,
  claiming: ((claim: CapacityClaim) => Promise<T | CapacityRefusal>) | undefined,
  refused: (result: T) => boolean = () => false,
): Promise<T> {
  if (!gate || !claiming) return withCapacity(gate, workspace, kind, create, refused);
  const limit = await gate.limit(workspace, kind);
  const result = await claiming({ kind, limit });
  if (isCapacityRefusal(result)) throw gate.refusal(workspace, kind, limit ?? result.used, result.used);
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
