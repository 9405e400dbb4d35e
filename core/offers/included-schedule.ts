import { contractPeriod, grantIncludedCredits } from "../billing/mod.ts";
import { includedCreditsJob } from "./jobs.ts";
import type { GrantDue, OfferDeps } from "./ports.ts";

const DAY_MS = 86_400_000;

/**
 * The longest delay a job is queued with. An in-process timer overflows past 2^31 − 1 ms (24.8
 * days) and a month is longer: a job woken before its due queues itself again for the rest.
 */
export const MAX_JOB_DELAY_MS = 7 * DAY_MS;

/** Periods one job grants before it hands over to the next job (a long outage catches up in steps). */
const CATCH_UP_PER_JOB = 12;

/** Queues the job of `due` for its instant (at most MAX_JOB_DELAY_MS ahead). Without a queue, the sweep finds it. */
export async function scheduleIncludedCredits(deps: OfferDeps, due: GrantDue): Promise<void> {
  if (!deps.jobs) return;
  const delay = Math.max(0, Date.parse(due.due_at) - deps.clock.now().getTime());
  await deps.jobs.enqueue(includedCreditsJob, due.workspace_id, {
    contract_started_at: due.contract_started_at,
    due_at: due.due_at,
  }, { delayMs: Math.min(delay, MAX_JOB_DELAY_MS) });
}

export interface DueGrant {
  /**
   * `granted`: the period's credits were granted (or already were: the ledger key names the
   * period); `not_in_force`: the workspace is no longer on the contract's plan, nothing granted;
   * `stale`: the contract was replaced or ended, the due dropped; `not_due`: its instant is ahead.
   */
  outcome: "granted" | "not_in_force" | "stale" | "not_due";
  granted: number;
  /** What is due next (the next period's start); null once dropped. */
  next: GrantDue | null;
}

/**
 * Grants the included credits of the contract period starting at `due.due_at`, then moves the
 * schedule to the next period's start. Idempotent: the grant's ledger key names the period, and
 * moving a due already moved does nothing, so a retry, a redelivered job or two workers at once
 * grant each period once. The period is the contract's own (months from `started_at`).
 */
export async function grantDueCredits(deps: OfferDeps, due: GrantDue): Promise<DueGrant> {
  if (Date.parse(due.due_at) > deps.clock.now().getTime()) return { outcome: "not_due", granted: 0, next: due };
  const contract = await deps.stores.contracts.get(due.workspace_id);
  if (!contract || contract.started_at !== due.contract_started_at) {
    await deps.stores.contracts.advanceGrant(due, null);
    return { outcome: "stale", granted: 0, next: null };
  }
  const period = contractPeriod(contract, new Date(due.due_at));
  const workspace = await deps.stores.workspaces.getById(due.workspace_id);
  let outcome: DueGrant["outcome"] = "not_in_force";
  let granted = 0;
  // The plan stays after the term (renewal_due) and so do its credits; a plan changed away from
  // the contract's (an owner's switch without a provider) is no longer the contract's plan.
  if (workspace && workspace.plan === contract.plan) {
    granted = (await grantIncludedCredits(deps, workspace, contract.plan, period, contract.source, contract.limits)).granted;
    outcome = "granted";
  }
  await deps.stores.contracts.advanceGrant(due, period.end);
  return { outcome, granted, next: { ...due, due_at: period.end } };
}

/**
 * The `billing.included_credits` job: grants every period started since `due` (a few per run),
 * then queues itself for the next period's start (or the rest of its wait, when woken early).
 */
export async function runIncludedCreditsJob(deps: OfferDeps, due: GrantDue): Promise<void> {
  let current = due;
  for (let i = 0; i < CATCH_UP_PER_JOB; i++) {
    const r = await grantDueCredits(deps, current);
    if (r.next === null) return;
    current = r.next;
    if (r.outcome === "not_due") break;
  }
  await scheduleIncludedCredits(deps, current);
}
