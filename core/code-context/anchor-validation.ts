import type { AnchorCheck, AnchorRating } from "../topics/mod.ts";
import { anchorBase } from "./anchor-base.ts";
import type { PathMatcher } from "./ports.ts";

/**
 * Anchor validation: how well each anchor (a glob) of a topic fits the files of its linked repo's
 * default branch. Advisory only: it is reported on create and update, and never blocks a write.
 *
 * The rule, per pattern, over the repo's N files:
 * - `zero`: it matches no file (or the matcher cannot compile it);
 * - `overbroad`: it matches more than max(500, 20% of N) files: an anchor is meant to name the code
 *   a topic is about, and one that covers a fifth of a large repo (or hundreds of files) marks the
 *   topic drifted on nearly every push and matches it to nearly every file;
 * - `ok`: anything in between.
 */
export const OVERBROAD_MIN_MATCHES = 500;
export const OVERBROAD_SHARE = 0.2;
export const MAX_ANCHOR_SAMPLES = 5;

/** The largest match count still rated `ok` in a repo of `fileCount` files. */
export function overbroadThreshold(fileCount: number): number {
  return Math.max(OVERBROAD_MIN_MATCHES, Math.floor(fileCount * OVERBROAD_SHARE));
}

export function rateAnchor(matches: number, fileCount: number): AnchorRating {
  if (matches === 0) return "zero";
  return matches > overbroadThreshold(fileCount) ? "overbroad" : "ok";
}

/**
 * A repo's file list prepared for matching: sorted, so the files under an anchor's literal base
 * (`anchorBase`) are one contiguous run found by binary search, and a pattern is only tested
 * against the files it can match. Built once per (repo, commit) and cached by the caller.
 */
export class RepoFileList {
  readonly files: readonly string[];

  /** `files` must be sorted by code unit (`[...].sort()`); `RepoFileList.of` sorts. */
  constructor(files: readonly string[]) {
    this.files = files;
  }

  static of(files: Iterable<string>): RepoFileList {
    return new RepoFileList([...new Set(files)].sort());
  }

  get size(): number {
    return this.files.length;
  }

  /** Whether `path` is in the list. */
  has(path: string): boolean {
    const i = this.lowerBound(path);
    return this.files[i] === path;
  }

  /** The files equal to `dir` or below `dir/`, in order. */
  under(dir: string): readonly string[] {
    if (dir === "") return this.files;
    const out: string[] = [];
    if (this.has(dir)) out.push(dir);
    // Everything starting with `dir/` sorts between `dir/` and `dir0` ('0' follows '/').
    const from = this.lowerBound(`${dir}/`);
    const to = this.lowerBound(`${dir}0`);
    for (let i = from; i < to; i++) out.push(this.files[i]!);
    return out;
  }

  /** The files a pattern can match: those under its literal base, or all when that is unsafe to narrow. */
  candidates(pattern: string): readonly string[] {
    const base = anchorBase(pattern);
    const narrowable = base !== "" && base.split("/").every((s) => s !== "" && s !== "." && s !== "..");
    return narrowable ? this.under(base) : this.files;
  }

  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.files.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.files[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** A predicate for `pattern`, or the matcher's complaint when it cannot compile it. */
export function compilePattern(matcher: PathMatcher, pattern: string): ((path: string) => boolean) | { error: string } {
  try {
    return matcher.compile(pattern);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const GLOB = /[*?[\]{}()!+@\\]/;

/** Checks one anchor against the repo's files. */
export function checkAnchor(list: RepoFileList, pattern: string, matcher: PathMatcher): AnchorCheck {
  const test = compilePattern(matcher, pattern);
  if (typeof test !== "function") {
    return { pattern, matches: 0, rating: "zero", samples: [], warnings: [`Cannot compile pattern: ${test.error}`] };
  }
  let matches = 0;
  const samples: string[] = [];
  for (const f of list.candidates(pattern)) {
    if (!test(f)) continue;
    matches++;
    if (samples.length < MAX_ANCHOR_SAMPLES) samples.push(f);
  }
  const rating = rateAnchor(matches, list.size);
  const warnings: string[] = [];
  if (rating === "overbroad") {
    warnings.push(
      `Matches ${matches} of ${list.size} files (more than ${overbroadThreshold(list.size)}): narrow it to the code the topic is about`,
    );
  }
  if (matches > 1 && matches === list.size) warnings.push("Matches every file of the repo");
  if (rating === "zero") {
    const dir = pattern.replace(/\/+$/, "");
    if (!GLOB.test(dir) && list.under(dir).length > 0) warnings.push(`Names a directory: write \`${dir}/**\` to anchor the files in it`);
  }
  return { pattern, matches, rating, samples, warnings };
}

/** Checks every anchor; the result's `anchors` follow the given order. */
export function checkAnchors(list: RepoFileList, anchors: readonly string[], matcher: PathMatcher): AnchorCheck[] {
  return anchors.map((a) => checkAnchor(list, a, matcher));
}

/** The anchors that match no file of the list (a pattern that cannot compile counts as one). */
export function orphanedAnchors(list: RepoFileList, anchors: readonly string[], matcher: PathMatcher): string[] {
  return anchors.filter((a) => {
    const test = compilePattern(matcher, a);
    if (typeof test !== "function") return true;
    for (const f of list.candidates(a)) if (test(f)) return false;
    return true;
  });
}
