import type { RadarRun, RadarSearch, ResultOutcome, RunResult, TraceStep } from "../../../core/radar/model.ts";
import type { ResultPage, RunStore } from "../../../core/radar/ports.ts";
import { copy } from "../rows.ts";
import { mine } from "./rows.ts";
import type { RadarTables } from "./tables.ts";

/** Each method runs in one turn of the event loop, so each is atomic by construction. */
export class MemoryRunStore implements RunStore {
  constructor(private readonly t: RadarTables) {}

  async insertSearch(search: RadarSearch): Promise<void> {
    this.t.radarSearches.set(search.id, copy(search));
  }
  async getSearch(workspaceId: string, id: string): Promise<RadarSearch | null> {
    return mine(this.t.radarSearches.get(id), workspaceId);
  }

  async insertRun(run: RadarRun): Promise<void> {
    this.t.radarRuns.set(run.id, copy(run));
  }
  async getRun(workspaceId: string, id: string): Promise<RadarRun | null> {
    return mine(this.t.radarRuns.get(id), workspaceId);
  }
  async updateRun(next: RadarRun): Promise<"ok" | "version_conflict" | "not_found"> {
    const cur = mine(this.t.radarRuns.get(next.id), next.workspace_id);
    if (!cur) return "not_found";
    if (cur.version !== next.version - 1) return "version_conflict";
    this.t.radarRuns.set(next.id, copy(next));
    return "ok";
  }
  async staleRuns(now: string, limit: number): Promise<RadarRun[]> {
    return [...this.t.radarRuns.values()]
      .filter((r) => (r.state === "queued" || r.state === "running") && (r.lease_until === null || r.lease_until < now))
      .sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  async appendStep(workspaceId: string, runId: string, step: Omit<TraceStep, "seq">): Promise<TraceStep> {
    const steps = this.t.radarSteps.get(runId) ?? Object.assign([], { workspace_id: workspaceId });
    const stored: TraceStep = { ...copy(step), seq: steps.length + 1 };
    steps.push(stored);
    this.t.radarSteps.set(runId, steps);
    return copy(stored);
  }
  async steps(workspaceId: string, runId: string, afterSeq: number, limit: number): Promise<TraceStep[]> {
    const steps = this.t.radarSteps.get(runId);
    if (!steps || steps.workspace_id !== workspaceId) return [];
    return steps.slice(Math.max(0, afterSeq), Math.max(0, afterSeq) + limit).map(copy);
  }

  async claimResult(result: RunResult): Promise<{ claimed: true } | { claimed: false; existing: RunResult }> {
    const key = `${result.run_id}:${result.provider_id}`;
    const existing = this.t.radarResults.get(key);
    if (existing && existing.workspace_id === result.workspace_id) return { claimed: false, existing: copy(existing) };
    this.t.radarResults.set(key, copy(result));
    const list = this.t.radarResultsByRun.get(result.run_id) ?? [];
    list.push(copy(result));
    list.sort((a, b) => a.position - b.position);
    this.t.radarResultsByRun.set(result.run_id, list);
    return { claimed: true };
  }
  async results(workspaceId: string, runId: string, afterPosition: number, limit: number): Promise<ResultPage> {
    const list = (this.t.radarResultsByRun.get(runId) ?? []).filter((r) => r.workspace_id === workspaceId && r.position > afterPosition);
    const items = list.slice(0, limit).map(copy);
    return { items, next: list.length > limit ? items.at(-1)!.position : null };
  }
  async countResults(workspaceId: string, runId: string): Promise<Record<ResultOutcome, number>> {
    const counts: Record<ResultOutcome, number> = { created: 0, updated: 0, unchanged: 0 };
    for (const r of this.t.radarResultsByRun.get(runId) ?? []) if (r.workspace_id === workspaceId) counts[r.outcome]++;
    return counts;
  }
}
