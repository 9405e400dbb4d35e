import type { CodeContextDeps } from "./ports.ts";
import { validationFailed } from "../kernel/errors.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import {
  distinctTerms,
  FIELD_WEIGHT,
  MAX_QUERY_TERMS,
  type Topic,
  type TopicStatus,
  topicTerms,
  toTopicView,
  trustRank,
} from "../topics/mod.ts";
import { DEFAULT_BUDGET_TOKENS, RetrieveDto, RetrieveResult } from "./dto.ts";

export const DELIVERY_WINDOW_MS = 24 * 3_600_000;
const CHARS_PER_TOKEN = 4;
/** Tokens a topic's fields other than its text take in the bundle. */
const ITEM_OVERHEAD_TOKENS = 40;
/** A topic is only worth sending with at least this much of its text. */
const MIN_TEXT_TOKENS = 50;
const PER_TERM_RESULTS = 30;
const HOP_FROM = 10;
const MAX_NEIGHBOURS = 20;
const SCORE = { file: 100, perFile: 10, relation: 5 } as const;
const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it of on or should the this to we what when where which who why with you our"
    .split(" "),
);

interface Candidate {
  topic: Topic;
  score: number;
  reasons: string[];
}

export async function retrieve(deps: CodeContextDeps, ws: Workspace, session: string, dto: RetrieveDto): Promise<RetrieveResult> {
  const paths = [...new Set((dto.paths ?? []).map(normalizePath))].filter((p) => p !== "");
  const words = dto.question ? distinctTerms(dto.question).filter((w) => !STOP_WORDS.has(w)).slice(0, MAX_QUERY_TERMS) : [];
  if (!dto.question && paths.length === 0) {
    throw validationFailed("Invalid retrieve: give a question and/or paths", [{ path: "/", message: "question or paths is required" }]);
  }
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  const statuses: TopicStatus[] = dto.include_notes ? ["draft", "proposed", "reviewed"] : ["proposed", "reviewed"];
  const allowed = (t: Topic) => statuses.includes(t.status);
  const found = new Map<string, Candidate>();
  const add = (topic: Topic, score: number, ...reasons: string[]) => {
    const c = found.get(topic.id) ?? { topic, score: 0, reasons: [] };
    c.score += score;
    c.reasons.push(...reasons);
    found.set(topic.id, c);
  };

  // The files and each word on its own, all at once: none of these reads depends on another.
  // A question is rarely matched word for word by one topic; no totals are needed (counting
  // every holder of a common word would cost more than the search).
  const [byFile, results] = await Promise.all([
    paths.length > 0
      ? matchAnchors(deps, requireMatcher(deps, "retrieve by file"), ws.id, dto.repo_id ?? null, paths)
      : Promise.resolve(null),
    Promise.all(words.map((w) => deps.stores.topics.search(ws.id, { terms: [w], statuses, limit: PER_TERM_RESULTS, countCap: 0 }))),
  ]);
  if (byFile) {
    for (const t of byFile.topics) {
      const files = byFile.hits.get(t.id);
      if (!files || !allowed(t)) continue;
      add(t, SCORE.file + SCORE.perFile * files.size, ...[...files.keys()].map((path) => `file:${path}`));
    }
  }

  const textTopics = new Map<string, Topic>();
  for (const r of results) for (const t of r.items) textTopics.set(t.id, t);
  for (const t of textTopics.values()) {
    const terms = topicTerms(t);
    const [title, tags, body] = [new Set(terms.title), new Set(terms.tags), new Set(terms.body)];
    for (const w of words) {
      const weight = title.has(w) ? FIELD_WEIGHT.title : tags.has(w) ? FIELD_WEIGHT.tags : body.has(w) ? FIELD_WEIGHT.body : 0;
      if (weight > 0) add(t, weight, `text:${w}`);
    }
  }

  // One hop of relations from the best direct matches.
  const best = [...found.values()].sort(byRank).slice(0, HOP_FROM);
  if (best.length > 0) {
    const bestIds = new Set(best.map((c) => c.topic.id));
    const relations = await deps.stores.relations.ofTopics(ws.id, [...bestIds], MAX_NEIGHBOURS * 5);
    const via = new Map<string, string>();
    for (const r of relations) {
      const [from, other] = bestIds.has(r.from_topic_id) ? [r.from_topic_id, r.to_topic_id] : [r.to_topic_id, r.from_topic_id];
      if (!found.has(other) && !via.has(other)) via.set(other, `relation:${r.type}:${found.get(from)?.topic.slug ?? from}`);
      if (via.size >= MAX_NEIGHBOURS) break;
    }
    for (const t of await deps.stores.topics.getMany(ws.id, [...via.keys()])) if (allowed(t)) add(t, SCORE.relation, via.get(t.id)!);
  }

  const ranked = [...found.values()].sort(byRank);
  const now = deps.clock.now();
  const delivered = dto.include_delivered ? new Map<string, number>() : await deps.stores.retrievals.delivered(
    ws.id,
    session,
    ranked.map((c) => c.topic.id),
    new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString(),
  );
  const budget = dto.budget_tokens ?? DEFAULT_BUDGET_TOKENS;
  const maxTopics = dto.max_topics ?? 20;
  const out: RetrieveResult["topics"] = [];
  const skipped: string[] = [];
  let used = 0;
  let omitted = 0;
  for (const c of ranked) {
    const t = c.topic;
    if (delivered.get(t.id) === t.version) {
      skipped.push(t.slug);
      continue;
    }
    const room = budget - used - ITEM_OVERHEAD_TOKENS;
    if (out.length >= maxTopics || room < MIN_TEXT_TOKENS) {
      omitted++;
      continue;
    }
    const { text, truncated } = fit(t.body, room * CHARS_PER_TOKEN);
    used += ITEM_OVERHEAD_TOKENS + Math.ceil(text.length / CHARS_PER_TOKEN);
    const v = toTopicView(t, ws, now, "compact");
    out.push({
      id: t.id,
      slug: t.slug,
      title: t.title,
      status: t.status,
      trust: v.trust,
      drifted: v.drifted,
      stale: v.stale,
      approved_via: t.approved_via,
      version: t.version,
      reasons: c.reasons,
      score: c.score,
      text,
      truncated,
    });
  }
  await deps.stores.retrievals.record(
    ws.id,
    session,
    out.map((t) => ({ topic_id: t.id, version: t.version })),
    now.toISOString(),
    new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString(),
  );
  return { session, budget_tokens: budget, used_tokens: used, topics: out, skipped_delivered: skipped, omitted };
}

/** Relevance, then trust (reviewed first), then the most recently updated. */
function byRank(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    trustRank(b.topic.status) - trustRank(a.topic.status) ||
    (a.topic.updated_at < b.topic.updated_at ? 1 : a.topic.updated_at > b.topic.updated_at ? -1 : 0)
  );
}

/** The text cut to `maxChars`, at a paragraph or word boundary when one is near. */
export function fit(body: string, maxChars: number): { text: string; truncated: boolean } {
  if (body.length <= maxChars) return { text: body, truncated: false };
  const cut = body.slice(0, Math.max(0, maxChars - 1));
  const para = cut.lastIndexOf("\n\n");
  const space = cut.lastIndexOf(" ");
  const at = para > maxChars * 0.6 ? para : space > maxChars * 0.8 ? space : cut.length;
  return { text: `${cut.slice(0, at).trimEnd()}…`, truncated: true };
}
