/**
 * A deterministic synthetic dataset of topics for one workspace: what the topic benchmarks seed.
 *
 * - Titles of 3 to 8 words; Markdown bodies of 1 to 4 KB (headings, paragraphs, bullet and
 *   numbered lists, inline code spans, fenced code blocks, links, quotes), plain ASCII.
 * - Words drawn from two Zipf (1/rank) vocabularies: 85% from the ~700 words of an engineering
 *   knowledge base (vocabulary.ts), so that content words such as "deployment" occur in 10-20%
 *   of the topics; 15% from a long tail of 2^21 generated jargon words (code names,
 *   identifiers), so that most of them occur in a handful of topics.
 * - 2,000 tag names; each topic carries 1 to 5, drawn by Zipf popularity (the most popular tag is
 *   on about a third of the topics).
 * - Statuses 40% draft, 25% proposed, 30% reviewed, 5% archived; 20% docs, 25% written by a
 *   program, 2% of the reviewed ones drifted.
 *
 * The same seed and count give the same topics (ids included); only timestamps follow the clock
 * (they are spread over the two years before `anchor`, so that reviewed topics are recent).
 *
 * The queries the scenarios send (`queries`) are chosen from the count alone, before anything is
 * generated, so that scenario names can carry them: the common term is the content word whose
 * expected share of topics is closest to 15%; the rare term is the tail word expected in about
 * 10 topics. `stats` counts, exactly, how many generated topics each one matches.
 *
 * `bun bench/datasets/topics.ts [count]` generates without a database and prints the stats.
 */
import type { Topic } from "../../core/topics/model.ts";
import { RESERVED_TOPIC_SLUGS, slugCandidate, slugFromTitle } from "../../core/topics/topic-slug.ts";
import { sortedTags } from "../../core/topics/topic-change.ts";
import { CONTENT_WORDS, FUNCTION_WORDS, TAG_WORDS } from "./vocabulary.ts";

export const DEFAULT_SEED = 20_240_917;
export const TAG_COUNT = 2_000;
/** Share of words drawn from the knowledge-base vocabulary; the rest come from the jargon tail. */
const COMMON_SHARE = 0.85;
const TAIL_SIZE = 1 << 21;
/** Share of topics the common term should be in, and topics the rare term should be in. */
const COMMON_TARGET_SHARE = 0.15;
const RARE_TARGET_TOPICS = 10;
/** Rank (1-based) of the "mid" tag: on about 0.6% of the topics. */
const MID_TAG_RANK = 60;
const MIN_BODY = 1024;
const MAX_BODY = 4096;
const DAY_MS = 86_400_000;

// ---- randomness ----

/** sfc32: a small, fast, seedable PRNG (no dependency). */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.uint32().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }
}

/** Ranks 0..n-1 with probability proportional to 1/(rank+1): inverse CDF by binary search. */
class Zipf {
  readonly #cdf: Float64Array;

  constructor(readonly size: number) {
    this.#cdf = new Float64Array(size);
    let sum = 0;
    for (let i = 0; i < size; i++) this.#cdf[i] = sum += 1 / (i + 1);
    for (let i = 0; i < size; i++) this.#cdf[i]! /= sum;
  }

  /** Probability of `rank` (0-based). */
  p(rank: number): number {
    return this.#cdf[rank]! - (rank === 0 ? 0 : this.#cdf[rank - 1]!);
  }

  sample(random: Random): number {
    const u = random.next();
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// ---- vocabularies ----

const COMMON_WORDS = [...new Set([...FUNCTION_WORDS, ...CONTENT_WORDS])];
const commonZipf = new Zipf(COMMON_WORDS.length);
let tailZipf: Zipf | null = null;
/** Built on first use: 16 MB of CDF. */
const tail = () => (tailZipf ??= new Zipf(TAIL_SIZE));

const ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kr", "st", "th", "tr"];
const VOWELS = ["a", "e", "i", "o", "u"];
const SYLLABLES = ONSETS.flatMap((o) => VOWELS.map((v) => o + v));
const COMMON_SET = new Set(COMMON_WORDS);
const TAG_TERMS = new Set(TAG_WORDS);

/**
 * The jargon word of tail rank `rank` (0-based): at least two syllables, in bijective base
 * 100, so that distinct ranks give distinct words ("kolu", "strave", "drimato", ...). A word
 * that happens to be a vocabulary word gets an `x`, which no other tail word can end with.
 */
export function tailWord(rank: number): string {
  let n = rank + SYLLABLES.length + 1; // skip the one-syllable words
  let word = "";
  while (n > 0) {
    n -= 1;
    word = SYLLABLES[n % SYLLABLES.length]! + word;
    n = Math.floor(n / SYLLABLES.length);
  }
  return COMMON_SET.has(word) || TAG_TERMS.has(word) ? `${word}x` : word;
}

/** The 2,000 tag names, most popular first: the tag words alone, then pairs of them. */
function tagNames(count: number): string[] {
  const random = new Random(0x7a65);
  const names = [...TAG_WORDS];
  const seen = new Set(names);
  while (names.length < count) {
    const a = random.pick(TAG_WORDS);
    const b = random.pick(TAG_WORDS);
    const name = `${a}-${b}`;
    if (a === b || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  return names.slice(0, count);
}

// ---- text ----

/** Words a document builder drew from each vocabulary: what the queries are chosen by. */
interface Draws {
  common: number;
  tail: number;
}

class Writer {
  draws: Draws = { common: 0, tail: 0 };

  constructor(private readonly random: Random) {}

  reset(): void {
    this.draws = { common: 0, tail: 0 };
  }

  word(): string {
    if (this.random.chance(COMMON_SHARE)) {
      const rank = commonZipf.sample(this.random);
      this.draws.common++;
      return COMMON_WORDS[rank]!;
    }
    const rank = tail().sample(this.random);
    this.draws.tail++;
    return tailWord(rank);
  }

  words(min: number, max: number): string[] {
    const n = this.random.int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.word());
    return out;
  }

  title(): string {
    return capitalize(this.words(3, 8).join(" "));
  }

  /** An identifier, a flag, a call or a file name, as code spans hold them. */
  code(): string {
    const parts = this.words(1, 3);
    switch (this.random.int(0, 4)) {
      case 0:
        return parts.join("_");
      case 1:
        return `--${parts.join("-")}`;
      case 2:
        return `${parts.join(".")}()`;
      case 3:
        return `${parts.join("/")}.${this.random.pick(["ts", "go", "py", "yaml", "md", "sql"])}`;
      default:
        return parts.join("_").toUpperCase();
    }
  }

  sentence(min: number, max: number): string {
    const out: string[] = [];
    for (const w of this.words(min, max)) {
      const roll = this.random.next();
      if (roll < 0.05) out.push(`\`${this.code()}\``);
      else if (roll < 0.07) out.push(`**${w}**`);
      else if (roll < 0.08) out.push(`[${w}](https://wiki.example.com/${this.word()}/${this.word()})`);
      else if (roll < 0.1) out.push(`_${w}_`);
      else if (roll < 0.11) out.push(String(this.random.int(2, 9999)));
      out.push(w);
    }
    return `${capitalize(out.join(" "))}${this.random.pick([".", ".", ".", ":", "?", "!"])}`;
  }

  paragraph(): string {
    const n = this.random.int(2, 5);
    const sentences: string[] = [];
    for (let i = 0; i < n; i++) sentences.push(this.sentence(6, 18));
    return sentences.join(" ");
  }

  list(): string {
    const ordered = this.random.chance(0.35);
    const n = this.random.int(2, 6);
    const items: string[] = [];
    for (let i = 1; i <= n; i++) {
      const text = this.random.chance(0.3) ? `\`${this.code()}\`: ${this.sentence(3, 10)}` : this.sentence(3, 10);
      items.push(`${ordered ? `${i}.` : this.random.pick(["-", "*"])} ${text}`);
    }
    return items.join("\n");
  }

  codeBlock(): string {
    const lang = this.random.pick(["sh", "ts", "yaml", "sql", "json", ""]);
    const n = this.random.int(2, 6);
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`${this.code()} = ${this.word()}(${this.words(0, 2).join(", ")})`);
    return `\`\`\`${lang}\n${lines.join("\n")}\n\`\`\``;
  }

  heading(level: number): string {
    return `${"#".repeat(level)} ${capitalize(this.words(2, 5).join(" "))}`;
  }

  /** A Markdown body of `MIN_BODY` to `MAX_BODY` bytes. */
  body(title: string): string {
    const target = this.random.int(MIN_BODY, MAX_BODY - 300);
    const blocks = this.random.chance(0.3) ? [`# ${title}`, this.paragraph()] : [this.paragraph()];
    let length = blocks.reduce((n, b) => n + b.length + 2, 0);
    let lastHeading = false;
    while (length < target) {
      const roll = this.random.next();
      let block: string;
      if (roll < 0.16 && !lastHeading) block = this.heading(this.random.chance(0.75) ? 2 : 3);
      else if (roll < 0.62) block = this.paragraph();
      else if (roll < 0.84) block = this.list();
      else if (roll < 0.92) block = this.codeBlock();
      else block = `> ${this.sentence(6, 16)}`;
      lastHeading = block.startsWith("#");
      blocks.push(block);
      length += block.length + 2;
    }
    let body = blocks.join("\n\n");
    if (body.length > MAX_BODY) body = body.slice(0, body.lastIndexOf("\n", MAX_BODY));
    while (body.length < MIN_BODY) body += `\n\n${this.paragraph()}`;
    return body.length > MAX_BODY ? body.slice(0, MAX_BODY) : body;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- the queries ----

export interface TopicQueries {
  /** A content word in roughly 10-20% of the topics. */
  commonTerm: string;
  /** A jargon word in roughly 5-20 topics. */
  rareTerm: string;
  /** The most popular tag (on about a third of the topics). */
  popularTag: string;
  /** A tag on about 0.6% of the topics. */
  midTag: string;
}

/** Words drawn per document, from a calibration sample (fixed seed, independent of the count). */
let calibration: { common: number[]; tailMean: number } | null = null;

function calibrate(): { common: number[]; tailMean: number } {
  if (calibration) return calibration;
  const writer = new Writer(new Random(0xca1b));
  const common: number[] = [];
  let tailSum = 0;
  const samples = 400;
  for (let i = 0; i < samples; i++) {
    writer.reset();
    writer.body(writer.title());
    common.push(writer.draws.common);
    tailSum += writer.draws.tail;
  }
  return (calibration = { common, tailMean: tailSum / samples });
}

/** The queries for a dataset of `count` topics, and what they were chosen for. */
function chooseQueries(
  count: number,
  tags: readonly string[],
): { queries: TopicQueries; expected: { commonShare: number; rareTopics: number } } {
  const cal = calibrate();
  // Common: the content word (5+ letters, in no tag) whose expected share is nearest the target.
  let best = { id: -1, share: 0 };
  for (let rank = 0; rank < COMMON_WORDS.length; rank++) {
    const word = COMMON_WORDS[rank]!;
    if (word.length < 5 || TAG_TERMS.has(word) || FUNCTION_WORDS.includes(word)) continue;
    const p = commonZipf.p(rank); // per draw from this vocabulary: `cal.common` counts those
    const share = cal.common.reduce((sum, n) => sum + (1 - (1 - p) ** n), 0) / cal.common.length;
    if (best.id < 0 || Math.abs(share - COMMON_TARGET_SHARE) < Math.abs(best.share - COMMON_TARGET_SHARE)) best = { id: rank, share };
  }
  // Rare: a tail word is drawn about count × (tail words per topic) × P(rank) times, nearly
  // always in distinct topics; P(rank r, 0-based) = 1 / ((r + 1) H): solve for the target.
  const tailWords = count * cal.tailMean;
  const harmonic = 1 / tail().p(0);
  const rank = Math.min(TAIL_SIZE - 1, Math.max(0, Math.round(tailWords / (RARE_TARGET_TOPICS * harmonic)) - 1));
  return {
    queries: { commonTerm: COMMON_WORDS[best.id]!, rareTerm: tailWord(rank), popularTag: tags[0]!, midTag: tags[MID_TAG_RANK - 1]! },
    expected: { commonShare: best.share, rareTopics: tailWords * tail().p(rank) },
  };
}

// ---- the dataset ----

export interface QueryHits {
  /** Topics holding the term or tag, whatever their status. */
  all: number;
  /** Those a default request returns: search skips drafts and archived, lists skip archived. */
  returned: number;
}

export interface TopicDatasetStats {
  topics: number;
  bodyBytes: { total: number; min: number; max: number };
  tagsPerTopic: number;
  distinctTags: number;
  byStatus: Record<Topic["status"], number>;
  hits: Record<keyof TopicQueries, QueryHits>;
}

export interface TopicDatasetOptions {
  count: number;
  seed?: number;
}

export class TopicDataset {
  readonly count: number;
  readonly seed: number;
  readonly tags: readonly string[];
  readonly queries: TopicQueries;
  /** What the queries were chosen for: the common term's share, the rare term's topics. */
  readonly expected: { commonShare: number; rareTopics: number };
  /** Whole-word matchers of the two terms, as core's tokenizer splits this ASCII text. */
  readonly #commonRe: RegExp;
  readonly #rareRe: RegExp;
  #stats: TopicDatasetStats | null = null;

  constructor(options: TopicDatasetOptions) {
    if (!Number.isInteger(options.count) || options.count < 1) throw new Error(`Invalid topic count: ${options.count}`);
    this.count = options.count;
    this.seed = options.seed ?? DEFAULT_SEED;
    this.tags = tagNames(TAG_COUNT);
    const chosen = chooseQueries(this.count, this.tags);
    this.queries = chosen.queries;
    this.expected = chosen.expected;
    this.#commonRe = wholeWord(this.queries.commonTerm);
    this.#rareRe = wholeWord(this.queries.rareTerm);
  }

  /** Counts of the last complete `topics()` run; null before one completed. */
  get stats(): TopicDatasetStats | null {
    return this.#stats;
  }

  /**
   * The topics of workspace `workspaceId`, in order, each at version 1. `anchor` is "now" for the
   * timestamps. Generated lazily: iterate once (a second iteration generates the same topics).
   */
  *topics(workspaceId: string, anchor: Date = new Date()): Generator<Topic> {
    const random = new Random(this.seed);
    const writer = new Writer(random);
    const tagZipf = new Zipf(this.tags.length);
    const slugs = new Set<string>();
    const now = anchor.getTime();
    const zeroHits = () => ({ all: 0, returned: 0 });
    const stats: TopicDatasetStats = {
      topics: 0,
      bodyBytes: { total: 0, min: Number.POSITIVE_INFINITY, max: 0 },
      tagsPerTopic: 0,
      distinctTags: 0,
      byStatus: { draft: 0, proposed: 0, reviewed: 0, archived: 0 },
      hits: { commonTerm: zeroHits(), rareTerm: zeroHits(), popularTag: zeroHits(), midTag: zeroHits() },
    };
    const usedTags = new Set<string>();
    let tagTotal = 0;
    this.#stats = null;

    for (let i = 0; i < this.count; i++) {
      writer.reset();
      const title = writer.title();
      const body = writer.body(title);

      const tagCount = random.int(1, 5);
      const picked = new Set<string>();
      while (picked.size < tagCount) picked.add(this.tags[tagZipf.sample(random)]!);
      const tags = sortedTags(picked);

      const roll = random.next();
      const status: Topic["status"] = roll < 0.4 ? "draft" : roll < 0.65 ? "proposed" : roll < 0.95 ? "reviewed" : "archived";
      const kind = random.chance(0.2) ? "doc" : "note";
      const createdMs = now - Math.floor(random.next() * 730 * DAY_MS);
      let updatedMs = createdMs + Math.floor(random.next() * (now - createdMs));
      let governance: Topic["governance"] = { authoritative: false, approved_by: null, approved_at: null };
      let drift: Topic["drift"] = null;
      if (status === "reviewed") {
        const approvedMs = Math.max(createdMs, now - Math.floor(random.next() * 180 * DAY_MS));
        updatedMs = Math.max(updatedMs, approvedMs);
        governance = { authoritative: true, approved_by: null, approved_at: new Date(approvedMs).toISOString() };
        if (random.chance(0.02)) drift = { commit: random.hex(40), files: [`${writer.code()}`], at: new Date(updatedMs).toISOString() };
      }

      const base = slugFromTitle(title);
      let slug = base;
      for (let n = 2; slugs.has(slug) || RESERVED_TOPIC_SLUGS.has(slug); n++) slug = slugCandidate(base, n);
      slugs.add(slug);

      const topic: Topic = {
        id: uuidv7At(createdMs, random),
        workspace_id: workspaceId,
        slug,
        title,
        body,
        tags,
        area_id: null,
        repo_id: null,
        kind,
        origin: random.chance(0.25) ? "auto" : "manual",
        source_url: kind === "doc" && random.chance(0.5) ? `https://docs.example.com/${slug}` : null,
        owner_id: null,
        author_id: null,
        status,
        governance,
        approved_via: null,
        drift,
        merged_into: null,
        merged_from: [],
        anchors: [],
        version: 1,
        created_at: new Date(createdMs).toISOString(),
        updated_at: new Date(updatedMs).toISOString(),
      };

      stats.topics++;
      stats.byStatus[status]++;
      stats.bodyBytes.total += body.length;
      stats.bodyBytes.min = Math.min(stats.bodyBytes.min, body.length);
      stats.bodyBytes.max = Math.max(stats.bodyBytes.max, body.length);
      tagTotal += tags.length;
      for (const t of tags) usedTags.add(t);
      const searchable = status === "proposed" || status === "reviewed";
      const listed = status !== "archived";
      const count = (hits: QueryHits, match: boolean, returned: boolean) => {
        if (!match) return;
        hits.all++;
        if (returned) hits.returned++;
      };
      // What the stores index (title, tag names and body), as it ended up: a body cut to its
      // maximum length may have lost words drawn for it.
      const text = `${title}\n${tags.join(" ")}\n${body}`;
      count(stats.hits.commonTerm, this.#commonRe.test(text), searchable);
      count(stats.hits.rareTerm, this.#rareRe.test(text), searchable);
      count(stats.hits.popularTag, tags.includes(this.queries.popularTag), listed);
      count(stats.hits.midTag, tags.includes(this.queries.midTag), listed);
      yield topic;
    }
    stats.tagsPerTopic = tagTotal / Math.max(1, stats.topics);
    stats.distinctTags = usedTags.size;
    this.#stats = stats;
  }

  /** One line per query: the term or tag and how many topics it matches. */
  describeHits(): string[] {
    const s = this.#stats;
    if (!s) return [];
    const pct = (n: number) => `${((100 * n) / s.topics).toFixed(1)}%`;
    const { commonTerm, rareTerm, popularTag, midTag } = this.queries;
    const h = s.hits;
    return [
      `common term "${commonTerm}": in ${h.commonTerm.all} topics (${
        pct(h.commonTerm.all)
      }), ${h.commonTerm.returned} searchable (proposed or reviewed)`,
      `rare term "${rareTerm}": in ${h.rareTerm.all} topics, ${h.rareTerm.returned} searchable`,
      `popular tag "${popularTag}": on ${h.popularTag.all} topics (${
        pct(h.popularTag.all)
      }), ${h.popularTag.returned} listed (not archived)`,
      `mid tag "${midTag}": on ${h.midTag.all} topics (${pct(h.midTag.all)}), ${h.midTag.returned} listed`,
    ];
  }

  describe(): string[] {
    const s = this.#stats;
    if (!s) return [];
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    return [
      `${s.topics} topics, bodies ${kb(s.bodyBytes.min)}-${kb(s.bodyBytes.max)} (mean ${kb(s.bodyBytes.total / s.topics)}, ${
        (s.bodyBytes.total / 1_048_576).toFixed(0)
      } MB in all), ` +
      `${s.tagsPerTopic.toFixed(2)} tags per topic, ${s.distinctTags} of ${this.tags.length} tags used; ` +
      `draft ${s.byStatus.draft}, proposed ${s.byStatus.proposed}, reviewed ${s.byStatus.reviewed}, archived ${s.byStatus.archived}`,
      ...this.describeHits(),
    ];
  }
}

/** Matches `term` as a whole search term: not inside a longer run of letters and digits. */
function wholeWord(term: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9])${term}(?![A-Za-z0-9])`, "i");
}

/** A UUIDv7 of time `ms` with its random bits from `random`: deterministic ids. */
function uuidv7At(ms: number, random: Random): string {
  const ts = ms.toString(16).padStart(12, "0");
  const r = random.hex(20);
  const variant = ((Number.parseInt(r[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(4, 7)}-${r.slice(7, 19)}`;
}

/** "100k", "2.5k", "800": for scenario names. */
export function countLabel(n: number): string {
  if (n >= 1000 && n % 100 === 0) return `${Number((n / 1000).toFixed(1))}k`;
  return String(n);
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? 100_000);
  const dataset = new TopicDataset({ count });
  console.log(`queries for ${count} topics:`, dataset.queries, "expected:", dataset.expected);
  const started = performance.now();
  let n = 0;
  for (const _ of dataset.topics("00000000-0000-7000-8000-000000000000")) n++;
  console.log(`generated ${n} topics in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const line of dataset.describe()) console.log(`  ${line}`);
}
