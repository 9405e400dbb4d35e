import type { CodeContextDeps } from "./ports.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import { compareListed, type Topic, toTopicView, trustRank } from "../topics/mod.ts";
import { MatchFilesDto, MatchFilesResult } from "./dto.ts";

/** Match order: the trust verdict first (reviewed knowledge is what an agent should read first), then list order. */
export function compareMatched(a: Topic, b: Topic): number {
  return trustRank(b.status) - trustRank(a.status) || compareListed(a, b);
}

/** The topics whose anchors match each file (`POST /topics/match-files`). Archived topics never match. */
export async function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto): Promise<MatchFilesResult> {
  const matcher = requireMatcher(deps, "match files");
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  const paths = [...new Set(dto.paths.map(normalizePath))].filter((p) => p !== "");
  // Match-files shows no text: the bodies (kilobytes each, over a thousand candidates) stay unread.
  const { topics, hits, truncated } = await matchAnchors(deps, matcher, ws.id, dto.repo_id ?? null, paths, { bodyChars: 0 });
  const now = deps.clock.now();
  const ordered = topics.filter((t) => hits.has(t.id)).sort(compareMatched);
  // Each topic's verdict once, however many of the files it matches.
  const heads = new Map(
    ordered.map((t) => {
      const v = toTopicView(t, ws, now, "compact");
      return [t.id, {
        id: t.id,
        slug: t.slug,
        title: t.title,
        trust: v.trust,
        status: t.status,
        drifted: v.drifted,
        stale: v.stale,
        approved_via: t.approved_via,
      }];
    }),
  );
  return {
    files: paths.map((path) => ({
      path,
      topics: ordered.flatMap((t) => {
        const anchors = hits.get(t.id)?.get(path);
        return anchors ? [{ ...heads.get(t.id)!, matched_anchors: anchors }] : [];
      }),
    })),
    truncated,
  };
}
