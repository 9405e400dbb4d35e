import type { RadarMonitor } from "../../../core/radar/model.ts";
import type { MonitorStore } from "../../../core/radar/ports.ts";
import type { RadarCollections } from "./collections.ts";
import { strip } from "../strip-id.ts";
import { replaceVersioned } from "./versioned.ts";

/** Monitors; a monitor changes by the versions' compare-and-set (versioned.ts), without transactions. */
export class MongoMonitorStore implements MonitorStore {
  constructor(private readonly c: RadarCollections) {}

  async insertMonitor(m: RadarMonitor): Promise<void> {
    await this.c.radarMonitors.insertOne({ _id: m.id, ...m });
  }
  async getMonitor(workspaceId: string, id: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ _id: id, workspace_id: workspaceId });
    return d ? strip(d) : null;
  }
  async monitorById(id: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ _id: id });
    return d ? strip(d) : null;
  }
  async monitorOfSearch(workspaceId: string, searchId: string): Promise<RadarMonitor | null> {
    const d = await this.c.radarMonitors.findOne({ workspace_id: workspaceId, search_id: searchId });
    return d ? strip(d) : null;
  }
  updateMonitor(next: RadarMonitor): Promise<"ok" | "version_conflict" | "not_found"> {
    return replaceVersioned(this.c.radarVersions, this.c.radarMonitors, next);
  }

  async dueMonitors(now: string, limit: number): Promise<RadarMonitor[]> {
    const docs = await this.c.radarMonitors
      .find({ state: "active", next_run_at: { $ne: null, $lte: now } })
      .sort({ next_run_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(strip);
  }
}
