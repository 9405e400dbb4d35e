import type { KeptHead } from "./ports.ts";
import { compareListed, FIELD_WEIGHT, type Topic, topicTerms, trustRank } from "../topics/mod.ts";

/** A topic's head as `TopicHeadStore.heads` gives it (the reference for stores that read whole topics). */
export function keptHeadOf(t: Topic): KeptHead {
  return {
    id: t.id,
    slug: t.slug,
    title: t.title,
    status: t.status,
    drifted: t.drift !== null,
    approved_via: t.approved_via,
    approved_at: t.governance.approved_at,
    updated_at: t.updated_at,
    version: t.version,
  };
}

/** Each term's field weight in `t`, as `scoreTopic` weighs it (`TopicHeadStore.termWeights`' reference). */
export function termWeightsOf(t: Topic, terms: readonly string[]): number[] {
  const found = topicTerms(t);
  const [title, tags, body] = [new Set(found.title), new Set(found.tags), new Set(found.body)];
  return terms.map((w) => title.has(w) ? FIELD_WEIGHT.title : tags.has(w) ? FIELD_WEIGHT.tags : body.has(w) ? FIELD_WEIGHT.body : 0);
}

/** `compareListed` on heads (drifted first, trust, most recently updated, id; all descending). */
export function compareKeptListed(a: KeptHead, b: KeptHead): number {
  return compareListed(listedKey(a), listedKey(b));
}

/** Match order on heads (`compareMatched`: trust first, then list order). */
export function compareKeptMatched(a: KeptHead, b: KeptHead): number {
  return trustRank(b.status) - trustRank(a.status) || compareKeptListed(a, b);
}

const listedKey = (h: KeptHead) => ({ id: h.id, status: h.status, updated_at: h.updated_at, drift: h.drifted ? true : null });

/** Whether a head is stale at `staleBefore` (as `topicHead` and the stores decide it: reviewed and approved before it). */
export function keptStale(h: KeptHead, staleBefore: string): boolean {
  return h.status === "reviewed" && h.approved_at !== null && Date.parse(h.approved_at) < Date.parse(staleBefore);
}
