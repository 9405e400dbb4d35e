import type { CodeContextDeps, KeptHead, ReadVersions } from "./ports.ts";
import { keptMatches, keptText, type TextCandidate } from "./kept-heads.ts";
import { compareKeptListed, keptHeadOf, termWeightsOf } from "./topic-head.ts";
import { validationFailed } from "../kernel/errors.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import { distinctTerms, MAX_QUERY_TERMS, type Topic, type TopicStatus, toTopicView, trustRank } from "../topics/mod.ts";
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

/** What a candidate is ranked by; its text is read only if it is among those sent. */
type Ranked = Pick<Topic, "id" | "slug" | "status" | "updated_at" | "version">;

interface Candidate {
  head: Ranked;
  /** The whole topic when it was read whole (the reference path, a neighbour); else read if sent. */
  topic: Topic | null;
  score: number;
  reasons: string[];
}

type Add = (head: Ranked, topic: Topic | null, score: number, ...reasons: string[]) => void;

export async function retrieve(deps: CodeContextDeps, ws: Workspace, session: string, dto: RetrieveDto): Promise<RetrieveResult> {
  const paths = [...new Set((dto.paths ?? []).map(normalizePath))].filter((p) => p !== "");
  const words = dto.question ? distinctTerms(dto.question).filter((w) => !STOP_WORDS.has(w)).slice(0, MAX_QUERY_TERMS) : [];
  if (!dto.question && paths.length === 0) {
    throw validationFailed("Invalid retrieve: give a question and/or paths", [{ path: "/", message: "question or paths is required" }]);
  }
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  const statuses: TopicStatus[] = dto.include_notes ? ["draft", "proposed", "reviewed"] : ["proposed", "reviewed"];
  const allowed = (t: { status: TopicStatus }) => statuses.includes(t.status);
  const found = new Map<string, Candidate>();
  const add: Add = (head, topic, score, ...reasons) => {
    const c = found.get(head.id) ?? { head, topic, score: 0, reasons: [] };
    c.score += score;
    c.reasons.push(...reasons);
    found.set(head.id, c);
  };
  const repoId = dto.repo_id ?? null;
  const direct = { ws: ws.id, paths, words, statuses, repoId, allowed, add };
  if (!(await keptCandidates(deps, direct))) {
    found.clear();
    await readCandidates(deps, direct);
  }

  // One hop of relations from the best direct matches.
  const best = [...found.values()].sort(byRank).slice(0, HOP_FROM);
  if (best.length > 0) {
    const bestIds = new Set(best.map((c) => c.head.id));
    const relations = await deps.stores.relations.ofTopics(ws.id, [...bestIds], MAX_NEIGHBOURS * 5);
    const via = new Map<string, string>();
    for (const r of relations) {
      const [from, other] = bestIds.has(r.from_topic_id) ? [r.from_topic_id, r.to_topic_id] : [r.to_topic_id, r.from_topic_id];
      if (!found.has(other) && !via.has(other)) via.set(other, `relation:${r.type}:${found.get(from)?.head.slug ?? from}`);
      if (via.size >= MAX_NEIGHBOURS) break;
    }
    for (const t of await deps.stores.topics.getMany(ws.id, [...via.keys()])) if (allowed(t)) add(t, t, SCORE.relation, via.get(t.id)!);
  }

  const ranked = [...found.values()].sort(byRank);
  const now = deps.clock.now();
  const delivered = dto.include_delivered ? new Map<string, number>() : await deps.stores.retrievals.delivered(
    ws.id,
    session,
    ranked.map((c) => c.head.id),
    new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString(),
  );
  const budget = dto.budget_tokens ?? DEFAULT_BUDGET_TOKENS;
  const maxTopics = dto.max_topics ?? 20;
  const sendable = ranked.filter((c) => delivered.get(c.head.id) !== c.head.version);
  // Only the first `maxTopics` not yet delivered can be sent: their texts, read in one statement
  // when the candidates were ranked on heads (a topic gone meanwhile is not sent).
  const unread = sendable.slice(0, maxTopics).filter((c) => c.topic === null).map((c) => c.head.id);
  const read = new Map((unread.length > 0 ? await deps.stores.topics.getMany(ws.id, unread) : []).map((t) => [t.id, t]));
  const out: RetrieveResult["topics"] = [];
  const skipped: string[] = [];
  let used = 0;
  let omitted = 0;
  for (const c of ranked) {
    if (delivered.get(c.head.id) === c.head.version) {
      skipped.push(c.head.slug);
      continue;
    }
    const room = budget - used - ITEM_OVERHEAD_TOKENS;
    if (out.length >= maxTopics || room < MIN_TEXT_TOKENS) {
      omitted++;
      continue;
    }
    const t = c.topic ?? read.get(c.head.id);
    if (!t) continue;
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

/** What the direct matches are found by: the files, the question's words. */
interface Direct {
  ws: string;
  paths: string[];
  words: string[];
  statuses: TopicStatus[];
  repoId: string | null;
  allowed: (t: { status: TopicStatus }) => boolean;
  add: Add;
}

/**
 * The reference path: the matched topics and each word's search read whole, the words weighed on
 * the topics' own terms. The files and each word on their own, all at once: none of these reads
 * depends on another. A question is rarely matched word for word by one topic; no totals are
 * needed (counting every holder of a common word would cost more than the search).
 */
async function readCandidates(deps: CodeContextDeps, d: Direct): Promise<void> {
  const [byFile, results] = await Promise.all([
    d.paths.length > 0 ? matchAnchors(deps, requireMatcher(deps, "retrieve by file"), d.ws, d.repoId, d.paths) : Promise.resolve(null),
    Promise.all(
      d.words.map((w) => deps.stores.topics.search(d.ws, { terms: [w], statuses: d.statuses, limit: PER_TERM_RESULTS, countCap: 0 })),
    ),
  ]);
  if (byFile) {
    for (const t of byFile.topics) {
      const files = byFile.hits.get(t.id);
      if (!files || !d.allowed(t)) continue;
      d.add(t, t, SCORE.file + SCORE.perFile * files.size, ...[...files.keys()].map((path) => `file:${path}`));
    }
  }
  const textTopics = new Map<string, Topic>();
  for (const r of results) for (const t of r.items) textTopics.set(t.id, t);
  for (const t of textTopics.values()) addText(d, t, t, termWeightsOf(t, d.words));
}

function addText(d: Direct, head: Ranked, topic: Topic | null, weights: readonly number[]): void {
  d.words.forEach((w, i) => {
    if (weights[i]! > 0) d.add(head, topic, weights[i]!, `text:${w}`);
  });
}

/**
 * The same candidates, ranked on what is kept under the workspace's versions (ADR 048): the
 * matched topics' heads (kept-heads.ts), and per question the topics its words' searches found
 * (searched without bodies) with each word's field weight, which the store computes from the
 * stored terms. False when nothing can be kept (no topic version, the reference path for the files).
 */
async function keptCandidates(deps: CodeContextDeps, d: Direct): Promise<boolean> {
  const versions = await deps.stores.topicHeads.versions(d.ws);
  if (!versions) return false;
  const key = JSON.stringify([d.words, d.statuses]);
  const [byFile, texts] = await Promise.all([
    d.paths.length > 0
      ? keptMatches(deps, requireMatcher(deps, "retrieve by file"), d.ws, d.repoId, d.paths, versions)
      : Promise.resolve(null),
    d.words.length > 0 ? keptText(deps, d.ws, versions, key, () => textCandidates(deps, d)) : Promise.resolve([]),
  ]);
  if (d.paths.length > 0 && !byFile) return false;
  if (byFile) {
    // As the reference path adds them: in list order, each with its files in the request's order.
    const files = new Map<KeptHead, string[]>();
    byFile.byPath.forEach((matches, i) => {
      for (const { head } of matches) {
        const mine = files.get(head);
        if (mine) mine.push(d.paths[i]!);
        else files.set(head, [d.paths[i]!]);
      }
    });
    for (const head of [...files.keys()].sort(compareKeptListed)) {
      if (!d.allowed(head)) continue;
      const paths = files.get(head)!;
      d.add(head, null, SCORE.file + SCORE.perFile * paths.length, ...paths.map((path) => `file:${path}`));
    }
  }
  for (const { head, weights } of texts) addText(d, head, null, weights);
  return true;
}

/** Each word's search, without bodies, and the field weights of every word in every topic found. */
async function textCandidates(deps: CodeContextDeps, d: Direct): Promise<{ versions: ReadVersions | null; candidates: TextCandidate[] }> {
  const results = await Promise.all(
    d.words.map((w) =>
      deps.stores.topics.search(d.ws, { terms: [w], statuses: d.statuses, limit: PER_TERM_RESULTS, countCap: 0, bodyChars: 0 })
    ),
  );
  const textTopics = new Map<string, Topic>();
  for (const r of results) for (const t of r.items) textTopics.set(t.id, t);
  const { versions, weights } = await deps.stores.topicHeads.termWeights(d.ws, [...textTopics.keys()], d.words);
  const candidates: TextCandidate[] = [];
  for (const t of textTopics.values()) {
    const w = weights.get(t.id);
    if (w) candidates.push({ head: keptHeadOf(t), weights: w });
  }
  return { versions, candidates };
}

/** Relevance, then trust (reviewed first), then the most recently updated. */
function byRank(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    trustRank(b.head.status) - trustRank(a.head.status) ||
    (a.head.updated_at < b.head.updated_at ? 1 : a.head.updated_at > b.head.updated_at ? -1 : 0)
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
