import type { Principal } from "../access/mod.ts";
import type { SharingDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import { parseBool, type QueryBool, type QueryInt } from "../kernel/query-params.ts";
import { isStale, topicBySlug, trustOf } from "../topics/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { NoteShare, TopicBrief } from "./model.ts";
import type { NoteShareView, ShareNoteDto } from "./dto.ts";
import type { InboxFilter, InboxItem } from "./ports.ts";
import { assertCanMarkInboxRead, assertCanReadInbox, assertCanShare } from "./policy.ts";

export interface InboxQuery {
  limit?: QueryInt;
  offset?: QueryInt;
  unread?: QueryBool;
}

function toView(item: InboxItem, ws: Workspace, now: Date): NoteShareView {
  const t: TopicBrief = item.topic;
  return {
    ...item.share,
    topic: {
      slug: t.slug,
      title: t.title,
      status: t.status,
      trust: trustOf(t.status),
      stale: isStale(t.status, t.approved_at, ws.settings.review_interval_days, now),
      drifted: t.drifted,
    },
  };
}

/** The member whose inbox a principal reads. A faceless key acts for no member: it has none. */
function inboxOwner(p: Principal): string {
  assertCanReadInbox(p);
  return p.memberId;
}

/**
 * Shares a note with members of the workspace (anyone who may write): one inbox entry per distinct
 * recipient. Every id must name a member of this workspace, else a 400 naming the others, and
 * nothing is shared.
 */
export async function shareNote(deps: SharingDeps, p: Principal, ws: Workspace, slug: string, dto: ShareNoteDto): Promise<NoteShareView[]> {
  assertCanShare(p, "share a note");
  const topic = await topicBySlug(deps, ws, slug);
  const ids = [...new Set(dto.member_ids)];
  const found = await Promise.all(ids.map((id) => deps.stores.members.get(ws.id, id)));
  const unknown = ids.filter((_, i) => found[i] === null);
  if (unknown.length > 0) {
    throw validationFailed(
      `Invalid member_ids: not members of this workspace: ${unknown.join(", ")}`,
      unknown.map((id) => ({ path: `/member_ids/${dto.member_ids.indexOf(id)}`, message: `not a member of this workspace: ${id}` })),
    );
  }
  const now = deps.clock.now();
  const at = now.toISOString();
  const shares: NoteShare[] = ids.map((recipient) => ({
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    topic_id: topic.id,
    recipient_member_id: recipient,
    sender_id: p.identityId,
    message: dto.message ?? null,
    created_at: at,
    read_at: null,
  }));
  await deps.stores.noteShares.insert(shares);
  await emit(deps, ws.id, "note.shared", p, { topic_id: topic.id, slug: topic.slug, recipients: ids });
  await deps.onNoteShared?.(deps, ws, p.identityId, { slug: topic.slug, title: topic.title }, shares).catch(
    () => {},
  );
  const brief: TopicBrief = {
    id: topic.id,
    slug: topic.slug,
    title: topic.title,
    status: topic.status,
    approved_at: topic.governance.approved_at,
    drifted: topic.drift !== null,
  };
  return shares.map((share) => toView({ share, topic: brief }, ws, now));
}

export function parseInboxQuery(query: InboxQuery): { filter: InboxFilter; page: ReturnType<typeof parseOffsetPage> } {
  const page = parseOffsetPage(query);
  const unread = parseBool("unread", query.unread);
  return { filter: unread === undefined ? {} : { unread }, page };
}

/** The caller's inbox, newest first; `unread=true|false` filters. */
export async function listInbox(deps: SharingDeps, p: Principal, ws: Workspace, query: InboxQuery): Promise<OffsetResult<NoteShareView>> {
  const member = inboxOwner(p);
  const { filter, page } = parseInboxQuery(query);
  const { items, total } = await deps.stores.noteShares.inbox(ws.id, member, filter, page);
  const now = deps.clock.now();
  return toOffsetResult(items.map((i) => toView(i, ws, now)), total, page);
}

/** Marks one entry of the caller's inbox read. Another member's entry is a 404, as an unknown one. */
export async function markShareRead(deps: SharingDeps, p: Principal, ws: Workspace, shareId: string): Promise<NoteShareView> {
  assertCanMarkInboxRead(p);
  const member = p.memberId;
  const now = deps.clock.now();
  const item = await deps.stores.noteShares.markRead(ws.id, member, shareId, now.toISOString());
  if (!item) throw notFound("Shared note");
  return toView(item, ws, now);
}

/** Marks the caller's whole inbox read; returns how many entries were unread. */
export async function markAllSharesRead(deps: SharingDeps, p: Principal, ws: Workspace): Promise<{ updated: number }> {
  assertCanMarkInboxRead(p);
  const member = p.memberId;
  return { updated: await deps.stores.noteShares.markAllRead(ws.id, member, deps.clock.now().toISOString()) };
}
