import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { TopicTables } from "../topics/mod.ts";
import type { SharingTables } from "./tables.ts";
import type { ShareLink } from "../../../core/sharing/model.ts";
import type { ShareLinkStore, ShareMatch } from "../../../core/sharing/ports.ts";
import { copy } from "../rows.ts";

const linkKey = (workspaceId: string, topicId: string) => `${workspaceId}:${topicId}`;

/** The reference ShareLinkStore: one link per topic, found by its token's hash. */
export class MemoryShareLinkStore implements ShareLinkStore {
  constructor(private t: WorkspaceTables & TopicTables & SharingTables) {}

  async issue(link: ShareLink): Promise<"ok" | "not_found"> {
    const topic = this.t.topics.get(link.topic_id);
    if (!topic || topic.workspace_id !== link.workspace_id) return "not_found";
    dropLink(this.t, link.workspace_id, link.topic_id);
    const key = linkKey(link.workspace_id, link.topic_id);
    this.t.shareLinks.set(key, copy(link));
    this.t.shareLinkKeyByHash.set(link.token_hash, key);
    return "ok";
  }

  async get(workspaceId: string, topicId: string): Promise<ShareLink | null> {
    const link = this.t.shareLinks.get(linkKey(workspaceId, topicId));
    return link ? copy(link) : null;
  }

  async revoke(workspaceId: string, topicId: string): Promise<boolean> {
    return dropLink(this.t, workspaceId, topicId);
  }

  async findByHash(tokenHash: string): Promise<ShareMatch | null> {
    const key = this.t.shareLinkKeyByHash.get(tokenHash);
    const link = key ? this.t.shareLinks.get(key) : undefined;
    if (!link) return null;
    const workspace = this.t.workspaces.get(link.workspace_id);
    const topic = this.t.topics.get(link.topic_id);
    if (!workspace || !topic || topic.workspace_id !== link.workspace_id) return null;
    return { link: copy(link), workspace: copy(workspace), topic: copy(topic) };
  }
}

/** Removes a topic's link and its hash entry; false when it had none. */
export function dropLink(t: SharingTables, workspaceId: string, topicId: string): boolean {
  const key = linkKey(workspaceId, topicId);
  const link = t.shareLinks.get(key);
  if (!link) return false;
  t.shareLinks.delete(key);
  t.shareLinkKeyByHash.delete(link.token_hash);
  return true;
}
