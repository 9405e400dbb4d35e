import type { CodeContextDeps } from "./ports.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import { compareListed, isStale, type Topic, trustOf, trustRank } from "../topics/mod.ts";
import { LIMIT_PER_FILE, type MatchedTopicHead, type MatchFilesDto, type MatchFilesFullResult, type MatchFilesResult } from "./dto.ts";

/** Match order: the trust verdict first (reviewed knowledge is what an agent should read first), then list order. */
export function compareMatched(a: Topic, b: Topic): number {
  return trustRank(b.status) - trustRank(a.status) || compareListed(a, b);
}

/**
 * The topics whose anchors match each file (`POST /topics/match-files`). Archived topics never
 * match. Each file lists its first `limit_per_file` topics in match order and counts them all
 * (`total`); `view` says whether each topic's head is repeated per file or sent once (ADR 038).
 */
export function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto & { view?: "full" }): Promise<MatchFilesFullResult>;
export function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto): Promise<MatchFilesResult>;
export async function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto): Promise<MatchFilesResult> {
  const matcher = requireMatcher(deps, "match files");
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  const paths = [...new Set(dto.paths.map(normalizePath))].filter((p) => p !== "");
  const limit = dto.limit_per_file ?? LIMIT_PER_FILE.default;
  // Match-files shows no text: the bodies (kilobytes each, over a thousand candidates) stay unread.
  const { topics, hits, truncated } = await matchAnchors(deps, matcher, ws.id, dto.repo_id ?? null, paths, { bodyChars: 0 });

  // One pass over the (path, topic) pairs, topics in match order: each file's first `limit` and its total.
  const at = new Map(paths.map((p, i) => [p, i]));
  const files = paths.map((path) => ({ path, total: 0, listed: [] as Array<{ topic: Topic; anchors: string[] }> }));
  const ordered = topics.filter((t) => hits.has(t.id)).sort(compareMatched);
  const shown: Topic[] = [];
  for (const topic of ordered) {
    let listed = false;
    for (const [path, anchors] of hits.get(topic.id)!) {
      const file = files[at.get(path)!]!;
      file.total++;
      if (file.listed.length < limit) {
        file.listed.push({ topic, anchors });
        listed = true;
      }
    }
    if (listed) shown.push(topic);
  }

  // Each listed topic's verdict once, however many of the files it matches.
  const now = deps.clock.now();
  const heads = new Map(shown.map((t) => [t.id, headOf(t, ws, now)]));
  if (dto.view === "compact") {
    return {
      view: "compact",
      topics: [...heads.values()],
      files: files.map(({ path, total, listed }) => ({
        path,
        total,
        matches: listed.map(({ topic, anchors }) => ({ id: topic.id, matched_anchors: anchors })),
      })),
      truncated,
    };
  }
  return {
    view: "full",
    files: files.map(({ path, total, listed }) => ({
      path,
      total,
      topics: listed.map(({ topic, anchors }) => ({ ...heads.get(topic.id)!, matched_anchors: anchors })),
    })),
    truncated,
  };
}

function headOf(t: Topic, ws: Workspace, now: Date): MatchedTopicHead {
  return {
    id: t.id,
    slug: t.slug,
    title: t.title,
    trust: trustOf(t.status),
    status: t.status,
    drifted: t.drift !== null,
    stale: isStale(t.status, t.governance.approved_at, ws.settings.review_interval_days, now),
    approved_via: t.approved_via,
  };
}
