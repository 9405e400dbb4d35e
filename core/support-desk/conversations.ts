import type { Principal } from "../access/mod.ts";
import { type OffsetQuery, parseOffsetPage } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { SupportConversationPage } from "./dto.ts";
import { assertCanReadSupportLog } from "./policy.ts";
import type { SupportDeps } from "./ports.ts";

/** The workspace's support conversations, newest first, offset-paged (`limit` 1–200, default 50). Owners and admins. */
export async function listSupportConversations(
  deps: SupportDeps,
  p: Principal,
  ws: Workspace,
  query: OffsetQuery = {},
): Promise<SupportConversationPage> {
  assertCanReadSupportLog(p);
  const page = parseOffsetPage(query);
  const { items, total } = await deps.stores.supportLog.list(ws.id, page);
  return { conversations: items, total, has_more: page.offset + items.length < total };
}
