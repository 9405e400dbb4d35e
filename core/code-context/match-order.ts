import type { TopicHead } from "./ports.ts";
import { compareListed, type Topic, trustRank } from "../topics/mod.ts";

/** Match order: the trust verdict first (reviewed knowledge is what an agent should read first), then list order. */
export function compareMatched(a: Topic, b: Topic): number {
  return trustRank(b.status) - trustRank(a.status) || compareListed(a, b);
}

/**
 * A topic's head as match-files lists it, `at` its position in the list it came from;
 * `staleBefore` as `staleBefore()` gives it (a reviewed topic approved before it is stale:
 * `isStale`, compared as the stores compare it).
 */
export function topicHead(t: Topic, staleBefore: string, at: number): TopicHead {
  const approved = t.governance.approved_at;
  return {
    at,
    id: t.id,
    slug: t.slug,
    title: t.title,
    status: t.status,
    drifted: t.drift !== null,
    stale: t.status === "reviewed" && approved !== null && Date.parse(approved) < Date.parse(staleBefore),
    approved_via: t.approved_via,
  };
}
