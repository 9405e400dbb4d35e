import type { CoreDeps } from "../kernel/deps.ts";
import { AppError } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { ContactStores } from "./ports.ts";
import { unlockDone } from "./unlock-waits.ts";

/**
 * The lease of a contact unlock's hold, and the sweep that resolves the holds of requests that
 * died between their two writes (docs/decisions/055-unlock-hold-sweep.md). A begin holds the
 * credits and claims the keys under a lease; the request's finish ends it. A lease still there
 * after its end belongs to a request that died (a crash of the process or of the database between
 * the writes) or outlived it: the sweep drops its pending claims, captures what it settled and
 * releases the rest, so `available` is whole again within the lease plus one sweep interval.
 */

/** How long an unlock's request owns its hold and claims (RADAR_UNLOCK_LEASE_MS). */
export const DEFAULT_UNLOCK_LEASE_MS = 60_000;
/** How often a consuming process sweeps (RADAR_UNLOCK_SWEEP_MS). */
export const DEFAULT_UNLOCK_SWEEP_MS = 15_000;
/** Leases resolved per store read; a sweep reads again while a page comes back full. */
const PAGE = 100;
/** At most this many pages per sweep (the next sweep goes on), so one sweep stays bounded. */
const PAGES = 20;

export const unlockLeaseMs = (deps: { radarUnlockLeaseMs?: number }): number => deps.radarUnlockLeaseMs ?? DEFAULT_UNLOCK_LEASE_MS;

/**
 * The answer to an unlock that outlived its lease: its hold was resolved meanwhile (by the sweep,
 * or by another unlock taking its claims over). `charged`: what it settled before that (only where
 * a finish is not one write); those values are the workspace's, answered `already_unlocked` again.
 */
export function unlockExpired(leaseMs: number, charged = 0): AppError {
  return new AppError(
    "CONFLICT",
    `Cannot unlock contact paths: the request outlived its ${leaseMs} ms lease and its hold was resolved meanwhile; ` +
      "nothing was charged for the paths it did not settle; send it again",
    [],
    { lease_ms: leaseMs, charged_credits: charged },
  );
}

export interface UnlockSweep {
  /** Holds resolved by this sweep (captured or released). */
  resolved: number;
  /** Credits released back to `available`. */
  released: number;
  /** Credits captured for values the dead requests had settled (only where a finish is not one write). */
  captured: number;
}

/**
 * Resolves the hold of every unlock whose lease ended before now. Safe from any number of
 * processes at once, and against a late finish of the same request: the store resolves a hold
 * once (`expireUnlock`).
 */
export async function sweepUnlockHolds(deps: CoreDeps<ContactStores>): Promise<UnlockSweep> {
  const out: UnlockSweep = { resolved: 0, released: 0, captured: 0 };
  for (let page = 0; page < PAGES; page++) {
    const now = deps.clock.now().toISOString();
    const leases = await deps.stores.contactUnlocks.expiredUnlocks(now, PAGE);
    for (const l of leases) {
      const at = deps.clock.now().toISOString();
      const id = uuidv7(Date.parse(at));
      const r =
        (await deps.stores.contactUnlocks.expireUnlock(l.workspace_id, l.token, { id, at, reason: "contact unlock expired" })).resolution;
      // Its pending claims are dropped: a request of this process waiting on one reads again now.
      unlockDone(l.workspace_id, l.token);
      // Only this call's resolution counts (a concurrent finish or sweep may have resolved it).
      if (r?.id === id) {
        out.resolved++;
        out.captured -= r.amount;
        out.released += r.amount - r.held;
      }
    }
    if (leases.length < PAGE) break;
  }
  return out;
}
