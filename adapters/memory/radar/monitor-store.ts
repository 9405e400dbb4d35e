import type { RadarMonitor } from "../../../core/radar/model.ts";
import type { MonitorStore } from "../../../core/radar/ports.ts";
import { copy } from "../rows.ts";
import { mine } from "./rows.ts";
import type { RadarTables } from "./tables.ts";

/** Each method runs in one turn of the event loop, so each is atomic by construction. */
export class MemoryMonitorStore implements MonitorStore {
  constructor(private readonly t: RadarTables) {}

  async insertMonitor(monitor: RadarMonitor): Promise<void> {
    this.t.radarMonitors.set(monitor.id, copy(monitor));
  }
  async getMonitor(workspaceId: string, id: string): Promise<RadarMonitor | null> {
    return mine(this.t.radarMonitors.get(id), workspaceId);
  }
  async monitorById(id: string): Promise<RadarMonitor | null> {
    const m = this.t.radarMonitors.get(id);
    return m ? copy(m) : null;
  }
  async monitorOfSearch(workspaceId: string, searchId: string): Promise<RadarMonitor | null> {
    for (const m of this.t.radarMonitors.values()) if (m.workspace_id === workspaceId && m.search_id === searchId) return copy(m);
    return null;
  }
  async updateMonitor(next: RadarMonitor): Promise<"ok" | "version_conflict" | "not_found"> {
    const cur = mine(this.t.radarMonitors.get(next.id), next.workspace_id);
    if (!cur) return "not_found";
    if (cur.version !== next.version - 1) return "version_conflict";
    this.t.radarMonitors.set(next.id, copy(next));
    return "ok";
  }

  async dueMonitors(now: string, limit: number): Promise<RadarMonitor[]> {
    return [...this.t.radarMonitors.values()]
      .filter((m) => m.state === "active" && m.next_run_at !== null && m.next_run_at <= now)
      .sort((a, b) => (a.next_run_at! < b.next_run_at! ? -1 : a.next_run_at! > b.next_run_at! ? 1 : a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }
}
