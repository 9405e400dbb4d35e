/**
 * Anchors for the synthetic topics (`topics.ts`) on the synthetic monorepo (`repo-files.ts`), and
 * the requests the code-context benchmarks send: which 50 paths `POST /topics/match-files` asks
 * about, and the question and 5 paths of `POST /topics/retrieve`.
 *
 * Every topic gets the repo and 1 to 3 anchors (55% one, 30% two, 15% three), drawn from its own
 * PRNG: the topics themselves (titles, bodies, tags, statuses, ids) are exactly those of the same
 * `TopicDataset`. An anchor starts from a file of the repo: a unit (a service, a package, a docs
 * area, an infra stack) is drawn with a weight of its size times a popularity of 1/sqrt(rank), then
 * a file of it uniformly; the second and third anchors stay in the same unit 70% of the time.
 * From that file, the anchor is (per anchor):
 *
 * - narrow (95.45%): its module, `services/billing/src/invoice/**` (38%); its directory's files of
 *   its extension, `services/billing/src/invoice/*.ts` (18%); the file itself (22%); the module's
 *   files of its extension at any depth, `.../invoice/**\/*.ts` (6%); a name prefix,
 *   `.../invoice/retry*` (5%); the file and a sibling, `.../invoice/{retry,tax}.ts` (the rest);
 * - medium (4.5%): the unit, `services/billing/**` (2.5%), its sources, `services/billing/src/**`
 *   (1%), its migrations or docs, `services/billing/migrations/*.sql` (1%);
 * - broad (0.05%): `**\/*.md`, `**\/README.md`, `**\/migrations/*.sql`, `**\/*.test.ts`,
 *   `**\/package.json`, `docs/**\/*.md`.
 *
 * The queries are chosen from the anchors alone, before seeding: each file's candidate count is
 * the number of anchors whose literal base (core's `anchorBase`) is one of its ancestors, what
 * `TopicStore.anchoredAt` looks up. The 50 match-files paths are 5 of the top 1% of files by that
 * count, 10 of the 90-99th percentiles, 25 of the 10-90th and 10 of the bottom 10%; retrieve's 5
 * paths are one of the top, one of the 90-99th, two of the middle and one of the bottom.
 */
import { anchorBase, baseCandidates } from "../../core/code-context/anchor-base.ts";
import type { Topic } from "../../core/topics/model.ts";
import { Random, type TopicDataset } from "./topics.ts";
import type { RepoLayout, RepoUnit } from "./repo-files.ts";

export const ANCHOR_SEED = 0xa9c4025;
export const MATCH_PATHS = 50;
/** 6 to 10 words: what an agent would ask before touching invoice retries. */
export const RETRIEVE_QUESTION = "how does invoice retry handle a webhook timeout in production";

/** Shares of anchors: broad (base ``), medium (a unit), the rest narrow, split as `NARROW` says. */
/** A unit's weight is its size times 1/rank^this (ranks in a random order). */
const POPULARITY_EXPONENT = 0.3;
const BROAD_SHARE = 0.0002;
const MEDIUM_SHARE = 0.004;
const NARROW: [shape: "file" | "pair" | "prefix" | "directory" | "module" | "module-ext", share: number][] = [
  ["file", 0.35],
  ["pair", 0.08],
  ["prefix", 0.07],
  ["directory", 0.15],
  ["module", 0.25],
  ["module-ext", 0.1],
];
const BROAD = ["**/*.md", "**/README.md", "**/migrations/*.sql", "**/*.test.ts", "**/package.json", "docs/**/*.md"];

export type AnchorKind = "narrow" | "medium" | "broad";

export interface AnchorQueries {
  /** The 50 paths of the match-files request, in request order. */
  matchPaths: string[];
  /** The question and 5 paths of the retrieve request. */
  question: string;
  retrievePaths: string[];
}

/** What one request's paths find, as the server should (see `AnchoredTopics.expect`). */
export interface ExpectedMatch {
  /** Distinct non-archived topics whose anchors have a base among the paths' ancestors: what `anchoredAt` reads. */
  candidates: number;
  /** Distinct topics with at least one matching anchor. */
  topics: number;
  /** (path, topic) pairs: the sum of the response's per-path topic counts. */
  pairs: number;
  /** Per path, in request order. */
  perPath: number[];
}

/** A topic dataset with the anchors of each topic: what the code-context scenarios seed. */
export class AnchoredTopics {
  readonly count: number;
  readonly layout: RepoLayout;
  /** Anchors of topic i (0-based, in the dataset's order). */
  readonly anchors: string[][];
  readonly kinds: Record<AnchorKind, number> = { narrow: 0, medium: 0, broad: 0 };
  readonly queries: AnchorQueries;
  /** Statuses of the topics, known once `topics()` has run through them. */
  #statuses: Topic["status"][] | null = null;
  /** anchor base → topics (indexes) having an anchor with it. */
  readonly #byBase = new Map<string, number[]>();

  constructor(
    readonly dataset: TopicDataset,
    layout: RepoLayout,
    seed = ANCHOR_SEED,
  ) {
    this.count = dataset.count;
    this.layout = layout;
    const random = new Random(seed);
    const units = layout.units.filter((u) => u.files.length > 0);
    const order = units.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const weights = units.map((u, i) => u.files.length / (order[i]! + 1) ** POPULARITY_EXPONENT);
    const cdf: number[] = [];
    let sum = 0;
    for (const w of weights) cdf.push(sum += w);
    const pickUnit = (): RepoUnit => {
      const u = random.next() * sum;
      let lo = 0;
      let hi = cdf.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cdf[mid]! < u) lo = mid + 1;
        else hi = mid;
      }
      return units[lo]!;
    };

    this.anchors = [];
    for (let i = 0; i < this.count; i++) {
      const roll = random.next();
      const n = roll < 0.55 ? 1 : roll < 0.85 ? 2 : 3;
      const mine = new Set<string>();
      let unit = pickUnit();
      for (let k = 0; k < n; k++) {
        if (k > 0 && !random.chance(0.7)) unit = pickUnit();
        const { pattern, kind } = this.#anchor(random, unit);
        if (mine.has(pattern)) continue;
        mine.add(pattern);
        this.kinds[kind]++;
      }
      const list = [...mine];
      this.anchors.push(list);
      for (const base of new Set(list.map(anchorBase))) {
        const topics = this.#byBase.get(base);
        if (topics) topics.push(i);
        else this.#byBase.set(base, [i]);
      }
    }
    this.queries = this.#chooseQueries(new Random(seed ^ 0x9e3779b9));
  }

  #anchor(random: Random, unit: RepoUnit): { pattern: string; kind: AnchorKind } {
    const roll = random.next();
    if (roll < BROAD_SHARE) return { pattern: random.pick(BROAD), kind: "broad" };
    const file = random.pick(unit.files);
    const parts = file.split("/");
    const ext = file.slice(file.indexOf(".", file.lastIndexOf("/") + 1)); // ".ts", ".test.ts", ".md"
    // A unit's root, or for the root-level files the file's top directory.
    const root = unit.root !== "" ? unit.root : parts.length > 1 ? parts[0]! : "";
    if (roll < BROAD_SHARE + MEDIUM_SHARE && root !== "") {
      const r = (roll - BROAD_SHARE) / MEDIUM_SHARE;
      if (r < 0.6) return { pattern: `${root}/**`, kind: "medium" };
      if (unit.kind !== "service") return { pattern: `${root}/**/*${ext}`, kind: "medium" };
      if (r < 0.8) return { pattern: `${root}/src/**`, kind: "medium" };
      return { pattern: random.chance(0.7) ? `${root}/migrations/*.sql` : `${root}/docs/**`, kind: "medium" };
    }
    // Narrow. A file at the top of the repo can only be itself.
    if (parts.length < 3) return { pattern: file, kind: "narrow" };
    const parent = parts.slice(0, -1).join("/");
    const module = parts.slice(0, Math.min(parts.length - 1, 4)).join("/");
    const name = parts[parts.length - 1]!;
    const stem = name.slice(0, name.length - ext.length);
    let r = random.next();
    for (const [shape, share] of NARROW) {
      if ((r -= share) >= 0) continue;
      switch (shape) {
        case "file":
          return { pattern: file, kind: "narrow" };
        case "directory":
          return { pattern: `${parent}/*${ext}`, kind: "narrow" };
        case "module":
          return { pattern: `${module}/**`, kind: "narrow" };
        case "module-ext":
          return { pattern: `${module}/**/*${ext}`, kind: "narrow" };
        case "prefix":
          return { pattern: `${parent}/${stem.split("-")[0]}*`, kind: "narrow" };
        case "pair": {
          const sibling = unit.files.find((f) =>
            f !== file && f.startsWith(`${parent}/`) && f.endsWith(ext) && !f.slice(parent.length + 1).includes("/")
          );
          if (!sibling) return { pattern: file, kind: "narrow" };
          return { pattern: `${parent}/{${stem},${sibling.slice(parent.length + 1, sibling.length - ext.length)}}${ext}`, kind: "narrow" };
        }
      }
    }
    return { pattern: file, kind: "narrow" };
  }

  /** Anchors whose base is one of the file's ancestors (the file included): what a lookup of it reads. */
  #candidatesOf(path: string): number {
    let n = 0;
    for (const base of baseCandidates(path)) n += this.#byBase.get(base)?.length ?? 0;
    return n;
  }

  #chooseQueries(random: Random): AnchorQueries {
    // Modules (a file's first 4 directories at most), hottest first by their files' mean candidates.
    const modules = new Map<string, { files: string[]; candidates: number }>();
    for (const path of this.layout.files) {
      const parts = path.split("/");
      if (parts.length < 3) continue;
      const key = parts.slice(0, Math.min(parts.length - 1, 4)).join("/");
      const m = modules.get(key) ?? { files: [], candidates: 0 };
      m.files.push(path);
      m.candidates += this.#candidatesOf(path);
      modules.set(key, m);
    }
    const ranked = [...modules.values()]
      .filter((m) => m.files.length >= 4)
      .map((m) => ({ files: m.files, mean: m.candidates / m.files.length }))
      .sort((a, b) => b.mean - a.mean || (a.files[0]! < b.files[0]! ? -1 : 1));
    const taken = new Set<string>();
    const usedModules = new Set<number>();
    /** `n` files of one module drawn between quantiles `from` and `to` of the ranking (then the next modules while short). */
    const cluster = (from: number, to: number, n: number): string[] => {
      let at: number;
      do at = random.int(
        Math.floor(from * ranked.length),
        Math.max(Math.floor(from * ranked.length), Math.ceil(to * ranked.length) - 1),
      ); while (usedModules.has(at));
      const out: string[] = [];
      while (out.length < n) {
        usedModules.add(at);
        const pool = ranked[at]!.files.filter((f) => !taken.has(f));
        while (out.length < n && pool.length > 0) {
          const [path] = pool.splice(random.int(0, pool.length - 1), 1);
          taken.add(path!);
          out.push(path!);
        }
        at = (at + 1) % ranked.length;
      }
      return out;
    };
    const hot = cluster(0, 0.01, 5);
    const high = cluster(0.01, 0.1, 5);
    const middle = [...cluster(0.1, 0.9, 8), ...cluster(0.1, 0.9, 8)];
    const low = [...cluster(0.9, 1, 8), ...cluster(0.9, 1, 8)];
    const scattered: string[] = [];
    while (scattered.length < 8) {
      const path = random.pick(this.layout.files);
      if (taken.has(path)) continue;
      taken.add(path);
      scattered.push(path);
    }
    const matchPaths = [...hot, ...high, ...middle, ...low, ...scattered];
    return { matchPaths, question: RETRIEVE_QUESTION, retrievePaths: [hot[0]!, hot[1]!, middle[0]!, middle[1]!, scattered[0]!] };
  }

  /**
   * The topics of workspace `workspaceId` with `repo_id` and their anchors, in the dataset's order
   * (the same topics otherwise). Records their statuses, for `expect`.
   */
  *topics(workspaceId: string, anchor: Date = new Date()): Generator<Topic> {
    const repoId = this.repoId;
    if (!repoId) throw new Error("AnchoredTopics: set repoId (the linked repo) before generating the topics");
    const statuses: Topic["status"][] = [];
    let i = 0;
    for (const topic of this.dataset.topics(workspaceId, anchor)) {
      statuses.push(topic.status);
      yield { ...topic, repo_id: repoId, anchors: this.anchors[i]! };
      i++;
    }
    this.#statuses = statuses;
  }

  /** The id of the repo the topics are linked to (known once the repo is linked). */
  repoId: string | null = null;

  /**
   * What `paths` should find, computed here with the server's own matcher (`compile`: the
   * picomatch matcher of adapters/glob). Once `topics()` has run, only topics of `statuses`
   * (default: all but archived, as match-files has it) count as matches; candidates are always
   * the non-archived ones (what `anchoredAt` reads).
   */
  expect(
    paths: readonly string[],
    compile: (pattern: string) => (path: string) => boolean,
    statuses: readonly Topic["status"][] = ["draft", "proposed", "reviewed"],
  ): ExpectedMatch {
    const known = this.#statuses;
    const live = (i: number) => !known || known[i] !== "archived";
    const counts = (i: number) => !known || statuses.includes(known[i]!);
    const compiled = new Map<string, (path: string) => boolean>();
    const test = (pattern: string, path: string) => {
      let t = compiled.get(pattern);
      if (!t) compiled.set(pattern, t = compile(pattern));
      return t(path);
    };
    const candidates = new Set<number>();
    const matched = new Set<number>();
    const perPath: number[] = [];
    for (const path of paths) {
      const here = new Set<number>();
      for (const base of baseCandidates(path)) {
        for (const i of this.#byBase.get(base) ?? []) {
          if (!live(i)) continue;
          candidates.add(i);
          if (!here.has(i) && counts(i) && this.anchors[i]!.some((a) => anchorBase(a) === base && test(a, path))) here.add(i);
        }
      }
      for (const i of here) matched.add(i);
      perPath.push(here.size);
    }
    return { candidates: candidates.size, topics: matched.size, pairs: perPath.reduce((a, b) => a + b, 0), perPath };
  }

  describe(): string[] {
    const total = this.kinds.narrow + this.kinds.medium + this.kinds.broad;
    const pct = (n: number) => `${((100 * n) / total).toFixed(2)}%`;
    const bases = [...this.#byBase].sort((a, b) => b[1].length - a[1].length);
    return [
      `${total.toLocaleString("en-US")} anchors on ${this.count.toLocaleString("en-US")} topics (${
        (total / this.count).toFixed(2)
      } per topic): ` +
      `narrow ${this.kinds.narrow.toLocaleString("en-US")} (${pct(this.kinds.narrow)}), medium ${
        this.kinds.medium.toLocaleString("en-US")
      } (${pct(this.kinds.medium)}), ` +
      `broad ${this.kinds.broad} (${pct(this.kinds.broad)}); ${this.#byBase.size.toLocaleString("en-US")} distinct bases, the largest: ` +
      bases
        .slice(0, 3)
        .map(([b, t]) => `"${b}" ${t.length}`)
        .join(", "),
    ];
  }
}

if (import.meta.main) {
  const { TopicDataset } = await import("./topics.ts");
  const { repoLayout } = await import("./repo-files.ts");
  const { picomatchMatcher } = await import("../../adapters/glob/picomatch-matcher.ts");
  const count = Number(process.argv[2] ?? 100_000);
  let started = performance.now();
  const anchored = new AnchoredTopics(new TopicDataset({ count }), repoLayout());
  console.log(`anchors drawn in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const line of anchored.describe()) console.log(`  ${line}`);
  for (let i = 0; i < 8; i++) console.log(`  topic ${i}: ${anchored.anchors[i]!.join("  ")}`);
  started = performance.now();
  const match = anchored.expect(anchored.queries.matchPaths, picomatchMatcher.compile);
  console.log(
    `match-files (statuses unknown here, archived included), computed in ${((performance.now() - started) / 1000).toFixed(2)} s:`,
  );
  console.log(`  ${match.candidates} candidates, ${match.topics} topics match, ${match.pairs} (path, topic) pairs`);
  anchored.queries.matchPaths.forEach((p, i) => console.log(`  ${String(match.perPath[i]).padStart(5)}  ${p}`));
  const r = anchored.expect(anchored.queries.retrievePaths, picomatchMatcher.compile);
  console.log(`retrieve paths: ${r.candidates} candidates, ${r.topics} topics match: ${anchored.queries.retrievePaths.join(", ")}`);
}
