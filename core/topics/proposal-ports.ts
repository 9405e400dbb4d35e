import type { OffsetPage } from "../kernel/paging.ts";
import type { Listed } from "../workspaces/ports.ts";
import type { Proposal, ProposalDecision, ProposalStatus } from "./proposal-model.ts";

export interface ProposalFilter {
  topicId?: string;
  status?: ProposalStatus;
}

/**
 * Where suggested edits live. Absence is `null`; refusals are returned strings. Every method is
 * atomic on its own.
 */
export interface ProposalStore {
  insert(p: Proposal): Promise<void>;
  get(workspaceId: string, id: string): Promise<Proposal | null>;
  /** `newest`: created_at, id descending (a topic's proposals); `oldest`: ascending (the review queue). */
  list(workspaceId: string, filter: ProposalFilter, order: "newest" | "oldest", page: OffsetPage): Promise<Listed<Proposal>>;
  /**
   * Closes an open proposal. Of concurrent decisions exactly one is "ok"; the others, and any
   * decision on a closed proposal, are "not_open".
   */
  decide(workspaceId: string, id: string, d: ProposalDecision): Promise<"ok" | "not_open" | "not_found">;
  /** Deletes the proposals of a topic (its deletion: their patches hold its text). */
  removeTopic(workspaceId: string, topicId: string): Promise<void>;
}
