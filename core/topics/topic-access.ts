import type { TopicDeps } from "./ports.ts";
import { notFound, validationFailed } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
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
  deps: TopicDeps,
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
 * The topic record a slug names, following moves and merges; NOT_FOUND otherwise. What modules that
 * act on topics (sharing) look topics up with.
 */
export async function topicBySlug(deps: TopicDeps, ws: Workspace, slug: string): Promise<Topic> {
  return (await findTopic(deps, ws, slug)).topic;
}

/**
 * `topicBySlug` for several slugs at once, in two store reads whatever their number (the slugs,
 * then the topics merged ones point at). Keyed by slug; a slug naming nothing is absent.
 */
export async function topicsBySlug(deps: TopicDeps, ws: Workspace, slugs: readonly string[]): Promise<Map<string, Topic>> {
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

/** A slug a caller chose: reserved words are refused (they name fixed sub-paths). */
export function assertUsableSlug(slug: string): void {
  if (RESERVED_TOPIC_SLUGS.has(slug)) {
    throw validationFailed(`Invalid slug: ${slug} is reserved`, [{ path: "/slug", message: "reserved word" }]);
  }
}
