import type { TopicTables } from "./tables.ts";
import { type GraphFingerprint, type GraphNodeRow, type Relation, relationKey, type Topic } from "../../../core/topics/model.ts";
import type { RelationStore } from "../../../core/topics/ports.ts";
import { byCreated, copy, inWorkspace } from "../rows.ts";

export function nodeRow(t: Topic): GraphNodeRow {
  return { id: t.id, slug: t.slug, title: t.title, status: t.status, approved_at: t.governance.approved_at, drifted: t.drift !== null };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The reference RelationStore. The relation marker is a counter per workspace. */
export class MemoryRelationStore implements RelationStore {
  constructor(private t: TopicTables) {}

  private keyed(workspaceId: string, key: string): Relation | undefined {
    return inWorkspace(this.t.relations, workspaceId).find((r) => relationKey(r.from_topic_id, r.to_topic_id, r.type) === key);
  }

  private bump(workspaceId: string): void {
    this.t.relationMarkers.set(workspaceId, (this.t.relationMarkers.get(workspaceId) ?? 0) + 1);
  }

  async insert(r: Relation): Promise<"ok" | "duplicate" | "not_found"> {
    for (const id of [r.from_topic_id, r.to_topic_id]) if (this.t.topics.get(id)?.workspace_id !== r.workspace_id) return "not_found";
    if (this.keyed(r.workspace_id, relationKey(r.from_topic_id, r.to_topic_id, r.type))) return "duplicate";
    this.t.relations.set(r.id, copy(r));
    this.bump(r.workspace_id);
    return "ok";
  }

  async get(workspaceId: string, id: string): Promise<Relation | null> {
    const r = this.t.relations.get(id);
    return r && r.workspace_id === workspaceId ? copy(r) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const r = this.t.relations.get(id);
    if (!r || r.workspace_id !== workspaceId) return false;
    this.t.relations.delete(id);
    this.bump(workspaceId);
    return true;
  }

  async ofTopics(workspaceId: string, topicIds: readonly string[], limit: number): Promise<Relation[]> {
    const ids = new Set(topicIds);
    return inWorkspace(this.t.relations, workspaceId)
      .filter((r) => ids.has(r.from_topic_id) || ids.has(r.to_topic_id))
      .sort(byCreated)
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  async list(workspaceId: string, limit: number): Promise<Relation[]> {
    return inWorkspace(this.t.relations, workspaceId).sort(byCreated).slice(0, Math.max(0, limit)).map(copy);
  }

  async retarget(workspaceId: string, sourceId: string, targetId: string, newId: () => string): Promise<number> {
    let n = 0;
    const moving = inWorkspace(this.t.relations, workspaceId).filter((r) => r.from_topic_id === sourceId || r.to_topic_id === sourceId);
    for (const r of moving.sort(byCreated)) {
      this.t.relations.delete(r.id);
      const from = r.from_topic_id === sourceId ? targetId : r.from_topic_id;
      const to = r.to_topic_id === sourceId ? targetId : r.to_topic_id;
      if (from === to || this.keyed(workspaceId, relationKey(from, to, r.type))) continue;
      const id = newId();
      this.t.relations.set(id, { ...r, id, from_topic_id: from, to_topic_id: to });
      n++;
    }
    if (moving.length > 0) this.bump(workspaceId);
    return n;
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    let any = false;
    for (const r of inWorkspace(this.t.relations, workspaceId)) {
      if (r.from_topic_id === topicId || r.to_topic_id === topicId) {
        this.t.relations.delete(r.id);
        any = true;
      }
    }
    if (any) this.bump(workspaceId);
  }

  async nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]> {
    const out: GraphNodeRow[] = [];
    for (const id of new Set(ids)) {
      const t = this.t.topics.get(id);
      if (t && t.workspace_id === workspaceId) out.push(nodeRow(t));
    }
    return out;
  }

  async allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]> {
    return inWorkspace(this.t.topics, workspaceId)
      .filter((t) => includeArchived || t.status !== "archived")
      .sort(byId)
      .slice(0, Math.max(0, limit))
      .map(nodeRow);
  }

  async fingerprint(workspaceId: string, staleBefore: string): Promise<GraphFingerprint> {
    let last: { at: string; id: string } | null = null;
    let eventCount = 0;
    for (const e of inWorkspace(this.t.topicEvents, workspaceId)) {
      eventCount++;
      if (!last || e.at > last.at || (e.at === last.at && e.id > last.id)) last = e;
    }
    const staleCount = inWorkspace(this.t.topics, workspaceId).filter(
      (t) => t.status === "reviewed" && t.governance.approved_at !== null && t.governance.approved_at < staleBefore,
    ).length;
    return { lastEventId: last?.id ?? null, eventCount, relationMarker: String(this.t.relationMarkers.get(workspaceId) ?? 0), staleCount };
  }
}
