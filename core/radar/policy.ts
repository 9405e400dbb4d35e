import { assertCanWrite, canWrite, type Principal } from "../access/mod.ts";

/**
 * Radar's decisions, in access's vocabulary (ADR 018). Each one spends or commits the workspace's
 * credits, or changes its criteria, so each is for whoever may write (scope `work:write`): a
 * read-only token reads criteria, searches, runs, traces and monitors, and does none of these.
 * The refusal names the act, as the API has always said it.
 */
const ACTS = {
  reviseCriterion: "revise a criterion",
  openSearch: "open a radar search",
  priceRun: "price a radar run",
  startRun: "start a radar run",
  reconcileRun: "reconcile a radar run",
  pauseMonitor: "pause a radar monitor",
  resumeMonitor: "resume a radar monitor",
} as const;

/** What a principal may ask of radar beyond reading. */
export type RadarAct = keyof typeof ACTS;
export const RADAR_ACTS = Object.keys(ACTS) as RadarAct[];

export function canActOnRadar(p: Principal, _act: RadarAct): boolean {
  return canWrite(p);
}

export function assertCanActOnRadar(p: Principal, act: RadarAct): void {
  assertCanWrite(p, ACTS[act]);
}
