import type { GraphFingerprint, GraphNodeRow, Relation } from "./relation-model.ts";

/**
 * Where topic relations live, and the reads the graph needs. Absence is `null`, `false` or `[]`;
 * refusals are returned strings. Every method is atomic on its own. Lists come oldest first
 * (created_at, then id). Reads tolerate a relation whose topic is gone (a deletion cut short on a
 * backend without transactions): such a relation simply has no node.
 */
export interface RelationStore {
  /**
   * Inserts a relation unless the workspace has one with the same `relationKey` ("duplicate",
   * also under concurrent inserts) or one of its topics does not exist ("not_found"), then
   * advances the workspace's relation marker.
   */
  insert(r: Relation): Promise<"ok" | "duplicate" | "not_found">;
  get(workspaceId: string, id: string): Promise<Relation | null>;
  /** Deletes a relation and advances the marker; false when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Relations with either end among `topicIds`, at most `limit`. */
  ofTopics(workspaceId: string, topicIds: readonly string[], limit: number): Promise<Relation[]>;
  /** Every relation of the workspace, at most `limit`. */
  list(workspaceId: string, limit: number): Promise<Relation[]>;
  /**
   * A merge: every relation of `sourceId` is carried to `targetId` (keeping type, direction,
   * created_at and created_by, under a new id); one that would relate the target to itself, or
   * duplicate a relation the target has, is dropped. Advances the marker. Returns how many were
   * carried. Calling it again completes an interrupted call.
   */
  retarget(workspaceId: string, sourceId: string, targetId: string, newId: () => string): Promise<number>;
  /** Deletes every relation of a topic (its deletion). */
  removeTopic(workspaceId: string, topicId: string): Promise<void>;

  // ---- the graph's reads ----

  /** The topics with these ids, any status, in no particular order; unknown ids are left out. */
  nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]>;
  /** Every topic (archived ones only with `includeArchived`), oldest first (id), at most `limit`. */
  allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]>;
  /** The graph's change fingerprint, from indexed aggregates (no topic is loaded). */
  fingerprint(workspaceId: string, staleBefore: string): Promise<GraphFingerprint>;
}
