import type { TopicTables } from "./tables.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { type Proposal, type ProposalDecision } from "../../../core/topics/model.ts";
import type { ProposalFilter, ProposalStore } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

/** The reference ProposalStore: each method runs without awaiting in between, so each is atomic. */
export class MemoryProposalStore implements ProposalStore {
  constructor(private t: TopicTables) {}

  async insert(p: Proposal): Promise<void> {
    this.t.proposals.set(p.id, copy(p));
  }

  async get(workspaceId: string, id: string): Promise<Proposal | null> {
    const p = this.t.proposals.get(id);
    return p && p.workspace_id === workspaceId ? copy(p) : null;
  }

  async list(workspaceId: string, f: ProposalFilter, order: "newest" | "oldest", p: OffsetPage): Promise<Listed<Proposal>> {
    const rows = inWorkspace(this.t.proposals, workspaceId)
      .filter((x) => (!f.topicId || x.topic_id === f.topicId) && (!f.status || x.status === f.status))
      .sort(byCreated);
    if (order === "newest") rows.reverse();
    return page(rows, p.offset, p.limit);
  }

  async decide(workspaceId: string, id: string, d: ProposalDecision): Promise<"ok" | "not_open" | "not_found"> {
    const cur = this.t.proposals.get(id);
    if (!cur || cur.workspace_id !== workspaceId) return "not_found";
    if (cur.status !== "open") return "not_open";
    this.t.proposals.set(id, { ...cur, ...d });
    return "ok";
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    for (const p of inWorkspace(this.t.proposals, workspaceId)) if (p.topic_id === topicId) this.t.proposals.delete(p.id);
  }
}
