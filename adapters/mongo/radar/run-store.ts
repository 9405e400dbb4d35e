import type { RadarRun, RadarSearch, ResultOutcome, RunResult, TraceStep } from "../../../core/radar/model.ts";
import type { ResultPage, RunStore } from "../../../core/radar/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { RadarCollections } from "./collections.ts";
import { strip } from "../strip-id.ts";
import { replaceVersioned } from "./versioned.ts";

/** Searches, runs, steps and results; each method keeps its invariant without transactions (documents.ts). */
export class MongoRunStore implements RunStore {
  constructor(private readonly c: RadarCollections) {}

  async insertSearch(s: RadarSearch): Promise<void> {
    await this.c.radarSearches.insertOne({ _id: s.id, ...s });
  }
  async getSearch(workspaceId: string, id: string): Promise<RadarSearch | null> {
    const d = await this.c.radarSearches.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }

  async insertRun(r: RadarRun): Promise<void> {
    await this.c.radarRuns.insertOne({ _id: r.id, ...r });
  }
  async getRun(workspaceId: string, id: string): Promise<RadarRun | null> {
    const d = await this.c.radarRuns.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }
  updateRun(next: RadarRun): Promise<"ok" | "version_conflict" | "not_found"> {
    return replaceVersioned(this.c.radarVersions, this.c.radarRuns, next);
  }
  async staleRuns(now: string, limit: number): Promise<RadarRun[]> {
    const docs = await this.c.radarRuns
      .find({ state: { $in: ["queued", "running"] }, $or: [{ lease_until: null }, { lease_until: { $lt: now } }] })
      .sort({ updated_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(strip);
  }

  async appendStep(workspaceId: string, runId: string, step: Omit<TraceStep, "seq">): Promise<TraceStep> {
    // The next number is the last one's + 1; a concurrent append taking it makes this one retry.
    for (;;) {
      const [last] = await this.c.radarSteps.find({ workspace_id: workspaceId, run_id: runId }).sort({ seq: -1 }).limit(1).toArray();
      const seq = (last?.seq ?? 0) + 1;
      try {
        await this.c.radarSteps.insertOne({ _id: `${runId}:${seq}`, workspace_id: workspaceId, run_id: runId, seq, ...step });
        return { seq, ...step };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
    }
  }
  async steps(workspaceId: string, runId: string, afterSeq: number, limit: number): Promise<TraceStep[]> {
    const docs = await this.c.radarSteps
      .find({ workspace_id: workspaceId, run_id: runId, seq: { $gt: afterSeq } })
      .sort({ seq: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ seq: d.seq, type: d.type, at: d.at, data: d.data }));
  }

  async claimResult(result: RunResult): Promise<{ claimed: true } | { claimed: false; existing: RunResult }> {
    const _id = `${result.run_id}:${result.provider_id}`;
    try {
      await this.c.radarResults.insertOne({ _id, ...result });
      return { claimed: true };
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      const existing = await this.c.radarResults.findOne({ _id, workspace_id: result.workspace_id });
      if (!existing) throw e;
      return { claimed: false, existing: strip(existing) };
    }
  }
  async results(workspaceId: string, runId: string, afterPosition: number, limit: number): Promise<ResultPage> {
    const docs = await this.c.radarResults
      .find({ workspace_id: workspaceId, run_id: runId, position: { $gt: afterPosition } })
      .sort({ position: 1 })
      .limit(limit + 1)
      .toArray();
    const items = docs.slice(0, limit).map(strip);
    return { items, next: docs.length > limit ? items.at(-1)!.position : null };
  }
  async countResults(workspaceId: string, runId: string): Promise<Record<ResultOutcome, number>> {
    const count = (outcome: ResultOutcome) => this.c.radarResults.countDocuments({ workspace_id: workspaceId, run_id: runId, outcome });
    const [created, updated, unchanged] = await Promise.all([count("created"), count("updated"), count("unchanged")]);
    return { created, updated, unchanged };
  }
}
