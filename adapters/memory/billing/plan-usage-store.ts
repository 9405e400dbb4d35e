import type { ClaimOutcome, PlanUsageStore } from "../../../core/billing/ports.ts";
import type { Usage } from "../../../core/billing/plans.ts";
import { CAPACITY_KINDS, type CapacityKind } from "../../../core/kernel/capacity.ts";
import { inWorkspace } from "../rows.ts";
import type { CollectionTables } from "../collections/mod.ts";
import type { TopicTables } from "../topics/mod.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { BillingTables } from "./tables.ts";

type Tables = BillingTables & WorkspaceTables & TopicTables & CollectionTables;

/** Counters per workspace and kind; every method runs in one turn of the event loop, so a claim is atomic. */
export class MemoryPlanUsageStore implements PlanUsageStore {
  constructor(private t: Tables) {}

  /** The counter, seeded from an exact count of the items the first time it is touched. */
  private used(workspaceId: string, kind: CapacityKind): number {
    const key = `${workspaceId}:${kind}`;
    let n = this.t.planUsage.get(key);
    if (n === undefined) {
      n = inWorkspace(this.tableOf(kind), workspaceId).length;
      this.t.planUsage.set(key, n);
    }
    return n;
  }

  private tableOf(kind: CapacityKind): Map<string, { workspace_id: string }> {
    switch (kind) {
      case "members":
        return this.t.members;
      case "topics":
        return this.t.topics;
      case "collections":
        return this.t.collections;
      case "records":
        return this.t.records;
    }
  }

  async usage(workspaceId: string): Promise<Usage> {
    return Object.fromEntries(CAPACITY_KINDS.map((k) => [k, this.used(workspaceId, k)])) as Usage;
  }

  async usageOf(workspaceIds: string[]): Promise<Map<string, Usage>> {
    const out = new Map<string, Usage>();
    for (const id of workspaceIds) out.set(id, await this.usage(id));
    return out;
  }

  async claim(workspaceId: string, kind: CapacityKind, n: number, limit: number | null): Promise<ClaimOutcome> {
    const used = this.used(workspaceId, kind);
    if (limit !== null && used + n > limit) return { ok: false, used };
    this.t.planUsage.set(`${workspaceId}:${kind}`, used + n);
    return { ok: true };
  }

  async release(workspaceId: string, kind: CapacityKind, n: number): Promise<void> {
    const used = this.used(workspaceId, kind);
    this.t.planUsage.set(`${workspaceId}:${kind}`, Math.max(0, used - n));
  }
}
