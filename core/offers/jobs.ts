import { Type } from "@sinclair/typebox";
import { jobKind } from "../jobs/mod.ts";

// Patterns, not formats: a worker process checks payloads without the HTTP server's format registry.
const Id = Type.String({ pattern: "^[0-9a-fA-F-]{36}$" });
const Instant = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" });

/**
 * Grants a contract's included credits for the period starting at `due_at` (and any later one
 * already started), then queues itself for the next period's start. One per contract and period.
 */
export const includedCreditsJob = jobKind({
  name: "billing.included_credits",
  payload: Type.Object({ contract_started_at: Instant, due_at: Instant }, { additionalProperties: false }),
  dedupKey: (p) => `${p.contract_started_at}|${p.due_at}`,
});

/** Applies an accepted offer's effects that a crash left pending (contract, plan, credits). One per offer. */
export const offerEffectsJob = jobKind({
  name: "billing.offer_effects",
  payload: Type.Object({ offer_id: Id }, { additionalProperties: false }),
  dedupKey: (p) => p.offer_id,
});
