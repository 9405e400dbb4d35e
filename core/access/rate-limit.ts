import type { RateRule, WindowCount } from "./ports.ts";

/**
 * Fixed-window rate limiting: at most `limit` hits per key per window. The counter lives behind
 * `RateCounter` (in-process, or Redis shared by every instance); the rule is this pure function.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets (at least 1) */
  resetSeconds: number;
}

export function decide(rule: RateRule, w: WindowCount): RateDecision {
  return {
    allowed: w.count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - w.count),
    resetSeconds: Math.max(1, Math.ceil(w.resetMs / 1000)),
  };
}
