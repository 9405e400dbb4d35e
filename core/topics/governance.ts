/**
 * The topic governance state machine: one table, pure (ADR 007). `restore` brings an archived
 * topic back as a draft (owner/admin), since archived knowledge must be re-reviewed before it is
 * trusted again.
 */
export const TOPIC_STATUSES = ["draft", "proposed", "reviewed", "archived"] as const;
export type TopicStatus = (typeof TOPIC_STATUSES)[number];

export const GOVERNANCE_ACTIONS = ["propose", "reject", "approve", "archive", "unvouch", "vouch-ack", "restore"] as const;
export type GovernanceAction = (typeof GOVERNANCE_ACTIONS)[number];

/**
 * `writer`: anyone allowed to write topics; `owner_admin`: a person with the owner or admin role
 * who may also write (over OAuth, `work:write`): every governance action is a write.
 */
export type GovernanceAuthority = "writer" | "owner_admin";

interface Rule {
  from: readonly TopicStatus[];
  to: TopicStatus;
  authority: GovernanceAuthority;
}

export const GOVERNANCE: Record<GovernanceAction, Rule> = {
  propose: { from: ["draft"], to: "proposed", authority: "writer" },
  reject: { from: ["proposed"], to: "draft", authority: "owner_admin" },
  approve: { from: ["draft", "proposed"], to: "reviewed", authority: "owner_admin" },
  archive: { from: ["draft", "proposed", "reviewed"], to: "archived", authority: "writer" },
  unvouch: { from: ["reviewed"], to: "proposed", authority: "owner_admin" },
  "vouch-ack": { from: ["reviewed"], to: "reviewed", authority: "owner_admin" },
  restore: { from: ["archived"], to: "draft", authority: "owner_admin" },
};

export interface Actor {
  canWrite: boolean;
  isOwnerOrAdmin: boolean;
}

export type TransitionResult =
  | { ok: true; to: TopicStatus }
  /** `missing`: what the actor lacks, the role (no scope would help) or the write scope (step-up would). */
  | { ok: false; reason: "forbidden"; authority: GovernanceAuthority; missing: "role" | "scope" }
  | { ok: false; reason: "illegal"; current: TopicStatus; allowedFrom: readonly TopicStatus[] };

/**
 * Whether `actor` may apply `action` to a topic in `current` state, and where it leads. Authority
 * is checked first: a member asking for an owner/admin action learns nothing about the state.
 * Within authority, the role before the scope (as `assertOwnerOrAdmin`): a member's token is told
 * the role is missing, an owner's read-only token that `work:write` is.
 */
export function transition(current: TopicStatus, action: GovernanceAction, actor: Actor): TransitionResult {
  const rule = GOVERNANCE[action];
  if (rule.authority === "owner_admin" && !actor.isOwnerOrAdmin) {
    return { ok: false, reason: "forbidden", authority: rule.authority, missing: "role" };
  }
  if (!actor.canWrite) return { ok: false, reason: "forbidden", authority: rule.authority, missing: "scope" };
  if (!rule.from.includes(current)) return { ok: false, reason: "illegal", current, allowedFrom: rule.from };
  return { ok: true, to: rule.to };
}
