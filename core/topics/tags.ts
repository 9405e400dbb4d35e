import { assertCanWrite, type Principal } from "../access/mod.ts";
import { assertCanDeleteTag, assertCanRenameTag } from "./policy.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { notFound, validationFailed } from "../kernel/errors.ts";
import { type OffsetQuery, type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { Topic } from "./model.ts";
import type { CreateTagDto, TagView, UpdateTagDto } from "./dto.ts";
import type { TopicWrite } from "./ports.ts";
import { normalizeTagName } from "./tag-name.ts";
import { changeTopic, sortedTags } from "./topic-change.ts";

const tagNotFound = () => notFound("Tag");

function tagName(raw: string, path: string): string {
  const name = normalizeTagName(raw);
  if (name === null) {
    throw validationFailed(`Invalid tag name: ${JSON.stringify(raw)}`, [{ path, message: "1 to 64 characters after normalisation" }]);
  }
  return name;
}

export async function listTags(deps: TopicDeps, ws: Workspace, query: OffsetQuery = {}): Promise<OffsetResult<TagView>> {
  const page = parseOffsetPage(query);
  const { items, total } = await deps.stores.tags.list(ws.id, page);
  return toOffsetResult(items, total, page);
}

/** Registers a tag; an existing one takes the given description. Idempotent. */
export async function createTag(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  dto: CreateTagDto,
): Promise<{ tag: TagView; created: boolean }> {
  assertCanWrite(p, "create a tag");
  const at = deps.clock.now().toISOString();
  const r = await deps.stores.tags.upsert({
    workspace_id: ws.id,
    name: tagName(dto.name, "/name"),
    description: dto.description ?? null,
    created_at: at,
    updated_at: at,
  });
  if (r.created) await emit(deps, ws.id, "tag.created", p, { name: r.tag.name });
  return r;
}

function retagger(deps: TopicDeps, p: Principal, from: string, to: string | null): (t: Topic) => TopicWrite {
  return (t) => {
    const tags = sortedTags([...t.tags.filter((x) => x !== from), ...(to ? [to] : [])]);
    return changeTopic(p, t, { tags }, "topic.retagged", deps.clock.now(), { from, to });
  };
}

/**
 * Renames (owner/admin) and/or describes a tag. A rename rewrites every topic carrying the tag,
 * each as a new version of that topic; onto an existing name, the two tags become one.
 */
export async function updateTag(deps: TopicDeps, p: Principal, ws: Workspace, rawName: string, dto: UpdateTagDto): Promise<TagView> {
  let name = tagName(rawName, "path.name");
  const to = dto.name === undefined ? name : tagName(dto.name, "/name");
  // Renaming takes the role (checked before the scope), describing only the write scope.
  if (to !== name) assertCanRenameTag(p);
  else assertCanWrite(p, "change a tag");
  if (to !== name) {
    const n = await deps.stores.tags.retag(ws.id, name, to, retagger(deps, p, name, to));
    if (n === null) throw tagNotFound();
    await emit(deps, ws.id, "tag.renamed", p, { from: name, to, topics: n });
    name = to;
  }
  if (dto.description !== undefined) {
    const tag = await deps.stores.tags.describe(ws.id, name, dto.description, deps.clock.now().toISOString());
    if (!tag) throw tagNotFound();
    return tag;
  }
  const tag = await deps.stores.tags.get(ws.id, name);
  if (!tag) throw tagNotFound();
  return tag;
}

/** Deletes a tag and detaches it from every topic (owner/admin). Returns how many topics lost it. */
export async function deleteTag(deps: TopicDeps, p: Principal, ws: Workspace, rawName: string): Promise<{ name: string; topics: number }> {
  assertCanDeleteTag(p);
  const name = tagName(rawName, "path.name");
  const n = await deps.stores.tags.retag(ws.id, name, null, retagger(deps, p, name, null));
  if (n === null) throw tagNotFound();
  await emit(deps, ws.id, "tag.deleted", p, { name, topics: n });
  return { name, topics: n };
}
