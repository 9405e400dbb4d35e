import type { CoreDeps } from "../deps.ts";
import { notFound, validationFailed } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/model.ts";
import type { Topic } from "./model.ts";
import { normalizeTagNames } from "./tag-name.ts";
import { RESERVED_TOPIC_SLUGS } from "./topic-slug.ts";
import { sortedTags } from "./topic-change.ts";

export const topicNotFound = () => notFound("Topic");

/**
 * The topic a path names: by slug, else by an old slug (a move's redirect). A topic merged into
 * another answers with the target, as its slug now redirects there.
 */
export async function findTopic(
  deps: CoreDeps,
  ws: Workspace,
  slug: string,
  opts: { followMerge?: boolean } = {},
): Promise<{ topic: Topic; redirectedFrom: string | null }> {
  const found = await deps.stores.topics.resolve(ws.id, slug);
  if (!found) throw topicNotFound();
  if ((opts.followMerge ?? true) && found.topic.merged_into) {
    const target = await deps.stores.topics.get(ws.id, found.topic.merged_into);
    if (target) return { topic: target, redirectedFrom: slug };
  }
  return found;
}

/**
 * `findTopic` for several slugs at once, in two store reads whatever their number (the slugs,
 * then the topics merged ones point at). Keyed by slug; a slug naming nothing is absent.
 */
export async function findTopics(deps: CoreDeps, ws: Workspace, slugs: readonly string[]): Promise<Map<string, Topic>> {
  const found = await deps.stores.topics.resolveMany(ws.id, slugs);
  const targetIds = [...found.values()].flatMap((f) => (f.topic.merged_into ? [f.topic.merged_into] : []));
  const targets = targetIds.length === 0 ? [] : await deps.stores.topics.getMany(ws.id, targetIds);
  const byId = new Map(targets.map((t) => [t.id, t]));
  // As findTopic: a merged topic answers with its target, or with itself when the target is gone.
  return new Map([...found].map(([slug, f]) => [slug, (f.topic.merged_into && byId.get(f.topic.merged_into)) || f.topic]));
}

/** Normalised, sorted tags of a write; a name that normalises to nothing (or too long) is a 400. */
export function tagsOf(raw: readonly string[]): string[] {
  const r = normalizeTagNames(raw);
  if ("invalid" in r) {
    throw validationFailed(`Invalid tag name: ${JSON.stringify(r.invalid)}`, [
      { path: "/tags", message: "a tag name is 1 to 64 characters after normalisation" },
    ]);
  }
  return sortedTags(r.names);
}

/** Area and repo references must name objects of this workspace (else 400, never a leak). */
export async function checkRefs(deps: CoreDeps, ws: Workspace, refs: { area_id?: string | null; repo_id?: string | null }): Promise<void> {
  if (refs.area_id && !(await deps.stores.areas.get(ws.id, refs.area_id))) {
    throw validationFailed("Invalid area_id: no such area in this workspace", [{ path: "/area_id", message: "no such area" }]);
  }
  if (refs.repo_id && !(await deps.stores.repos.get(ws.id, refs.repo_id))) {
    throw validationFailed("Invalid repo_id: no such repo in this workspace", [{ path: "/repo_id", message: "no such repo" }]);
  }
}

/** A slug a caller chose: reserved words are refused (they name fixed sub-paths). */
export function assertUsableSlug(slug: string): void {
  if (RESERVED_TOPIC_SLUGS.has(slug)) {
    throw validationFailed(`Invalid slug: ${slug} is reserved`, [{ path: "/slug", message: "reserved word" }]);
  }
}
