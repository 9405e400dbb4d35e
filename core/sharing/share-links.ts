import { hashRawKey, type Principal } from "../access/mod.ts";
import type { SharingDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, notFound } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { isStale, topicBySlug, trustOf } from "../topics/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { SharedTopic, ShareLinkStatus } from "./dto.ts";
import { generateShareToken, looksLikeShareToken, sharePath } from "./share-token.ts";
import { assertCanShare } from "./policy.ts";

const shareLinkNotFound = () => notFound("Share link");

/** What issuing a link returns to the caller: the raw token, shown this once. */
export interface IssuedShareLink {
  token: string;
  path: string;
  created_at: string;
}

/**
 * Issues a public read-only link to the topic (anyone who may write). A topic has one active link:
 * issuing a new one revokes the previous. Archived topics are not shared (409): their page is a 404.
 */
export async function shareTopic(deps: SharingDeps, p: Principal, ws: Workspace, slug: string): Promise<IssuedShareLink> {
  assertCanShare(p, "share a topic");
  const topic = await topicBySlug(deps, ws, slug);
  if (topic.status === "archived") throw conflict("Cannot share topic: it is archived", { current_status: topic.status });
  const now = deps.clock.now();
  const token = generateShareToken();
  const link = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    topic_id: topic.id,
    token_hash: hashRawKey(token),
    created_by: p.identityId,
    created_at: now.toISOString(),
  };
  if ((await deps.stores.shareLinks.issue(link)) === "not_found") throw notFound("Topic");
  await emit(deps, ws.id, "share_link.created", p, { topic_id: topic.id, slug: topic.slug, link_id: link.id });
  return { token, path: sharePath(token), created_at: link.created_at };
}

/** Revokes the topic's link: the very next request for its page is a 404. No active link: 404. */
export async function revokeShareLink(deps: SharingDeps, p: Principal, ws: Workspace, slug: string): Promise<string> {
  assertCanShare(p, "revoke a share link");
  const topic = await topicBySlug(deps, ws, slug);
  const link = await deps.stores.shareLinks.get(ws.id, topic.id);
  if (!link || !(await deps.stores.shareLinks.revoke(ws.id, topic.id))) throw shareLinkNotFound();
  await emit(deps, ws.id, "share_link.revoked", p, { topic_id: topic.id, slug: topic.slug, link_id: link.id });
  return link.id;
}

/** Whether the topic has an active link (the token itself is never retrievable). */
export async function shareLinkStatus(deps: SharingDeps, ws: Workspace, slug: string): Promise<ShareLinkStatus> {
  const topic = await topicBySlug(deps, ws, slug);
  const link = await deps.stores.shareLinks.get(ws.id, topic.id);
  return { active: link !== null, created_at: link?.created_at ?? null, created_by: link?.created_by ?? null };
}

/**
 * The topic a public token opens, as it is now. Unknown, revoked and malformed tokens, and the
 * links of archived or deleted topics, are all the same 404.
 */
export async function readSharedTopic(deps: SharingDeps, token: string): Promise<SharedTopic> {
  if (!looksLikeShareToken(token)) throw shareLinkNotFound();
  const match = await deps.stores.shareLinks.findByHash(hashRawKey(token));
  if (!match || match.topic.status === "archived") throw shareLinkNotFound();
  const { topic: t, workspace } = match;
  return {
    title: t.title,
    body: t.body,
    tags: [...t.tags],
    trust: trustOf(t.status),
    stale: isStale(t.status, t.governance.approved_at, workspace.settings.review_interval_days, deps.clock.now()),
    drifted: t.drift !== null,
    updated_at: t.updated_at,
  };
}
