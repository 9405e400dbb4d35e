import type { CollectionDeps } from "./ports.ts";
import { topicsBySlug, toTopicView } from "../topics/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { findCollection } from "./collections.ts";
import type { Collection } from "./model.ts";

/**
 * A collection's criterion: the Knowledge topics its `criterion_rel_slugs` name, each with its
 * trust verdict, so a reader (or an agent filling the collection) knows how far to rely on it.
 * Moved and merged topics are followed; slugs that name nothing are listed as missing.
 */
export async function resolveCriterion(deps: CollectionDeps, ws: Workspace, c: Collection) {
  const now = deps.clock.now();
  const topics = await topicsBySlug(deps, ws, c.criterion_rel_slugs);
  const found = c.criterion_rel_slugs.map((slug) => {
    const topic = topics.get(slug);
    return { slug, topic: topic ? toTopicView(topic, ws, now, "full") : null };
  });
  return {
    collection_id: c.id,
    criterion: found.filter((f) => f.topic !== null) as { slug: string; topic: ReturnType<typeof toTopicView> }[],
    missing: found.filter((f) => f.topic === null).map((f) => f.slug),
  };
}

/** GET …/collections/{id}/context: the criterion of the collection `id` names. */
export async function getCollectionContext(deps: CollectionDeps, ws: Workspace, id: string) {
  return resolveCriterion(deps, ws, await findCollection(deps, ws, id));
}
