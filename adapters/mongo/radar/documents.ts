import type { ContactUnlock, RadarMonitor, RadarRun, RadarSearch, RunResult, TraceStep } from "../../../core/radar/model.ts";

/**
 * Radar's documents. Searches, runs and monitors are stored whole under `_id` = their id. Runs and
 * monitors change by compare-and-set: a write of version v+1 first inserts `<id>:<v+1>` into the
 * versions collection with the next state (the lock: one writer of v+1 wins, FerretDB v1 having no
 * atomic conditional update), then replaces the document forward (ADR 005). Version keys stay for
 * good (a late writer of v+1 must still collide); a snapshot is dropped once applied. Steps are
 * `<run_id>:<seq>`, results `<run_id>:<provider_id>`: the keys that number and claim them.
 */
export type SearchDoc = RadarSearch & { _id: string };
export type RunDoc = RadarRun & { _id: string };
export type MonitorDoc = RadarMonitor & { _id: string };
export interface VersionDoc {
  _id: string;
  workspace_id: string;
  of: string;
  version: number;
  /** The state of this version, until the document has moved past it. */
  snapshot?: RadarRun | RadarMonitor;
}
export type StepDoc = TraceStep & { _id: string; workspace_id: string; run_id: string };
export type ResultDoc = RunResult & { _id: string };
/** `_id` `<workspace_id>:<entity_id>:<kind>`: the unique key an unlock claims. */
export type UnlockDoc = ContactUnlock & { _id: string };
export const unlockKey = (u: Pick<ContactUnlock, "workspace_id" | "entity_id" | "kind">) => `${u.workspace_id}:${u.entity_id}:${u.kind}`;

/**
 * The lease of an unlock's hold (docs/decisions/055-unlock-hold-sweep.md), `_id` `<workspace_id>:<token>`:
 * inserted before the begin's claims and hold, deleted by whoever resolves the hold.
 */
export interface UnlockLeaseDoc {
  _id: string;
  workspace_id: string;
  token: string;
  lease_until: string;
}

/**
 * How a token's unlock ends, `_id` `<workspace_id>:<token>`: its finish (the settles it writes) or
 * its expiry (drop its pending claims). Inserting it is the lock (ADR 005): of a finish and the
 * sweep's expiry of one token exactly one inserts, and whoever meets it applies it again, the same
 * writes, so one cut short is completed. Deleted once the hold is resolved: a token's later end
 * (a repeat, a late finish) finds the resolution and writes nothing.
 */
export interface UnlockEndDoc {
  _id: string;
  workspace_id: string;
  token: string;
  /** `finish`: settle `settles`; `expire`: drop the token's pending claims. */
  kind: "finish" | "expire";
  settles: ContactUnlock[];
  resolution: { id: string; at: string; reason: string | null };
}

export const tokenKey = (workspaceId: string, token: string) => `${workspaceId}:${token}`;

/** The stored document without `_id`. */
export function strip<T extends { _id: string }>(d: T): Omit<T, "_id"> {
  const { _id: _, ...rest } = d;
  return rest;
}
