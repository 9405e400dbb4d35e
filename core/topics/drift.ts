import type { Principal } from "../access/mod.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import type { Drift, Topic } from "./model.ts";
import { changeTopic } from "./topic-change.ts";

/**
 * Sets a topic's drift: a new revision (`topic.drifted`, the commit and files as evidence) and its
 * workspace event. Code context decides which topics drifted (mark-drift.ts); every write of a
 * topic stays here. `p` is null for the system (the code-host webhook). Not "ok" when the topic
 * changed meanwhile (`version_conflict`: re-read and decide again) or is gone.
 */
export async function writeDrift(
  deps: TopicDeps,
  p: Principal | null,
  topic: Topic,
  drift: Drift,
  evidence: { commit: string | null; files: string[] },
): Promise<"ok" | "version_conflict" | "not_found" | "slug_taken"> {
  const w = changeTopic(p, topic, { drift }, "topic.drifted", new Date(drift.at), evidence);
  const result = await deps.stores.topics.update(w);
  if (result === "ok") {
    await emit(deps, topic.workspace_id, "topic.drifted", p, {
      topic_id: topic.id,
      slug: topic.slug,
      version: w.topic.version,
      commit: evidence.commit,
    });
  }
  return result;
}
