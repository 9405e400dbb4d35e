import { type Static, Type } from "@sinclair/typebox";
import type { CodeContextDeps } from "./ports.ts";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import { APPROVED_VIA, compareListed, type Topic, TOPIC_STATUSES, toTopicView, TRUST_VERDICTS, trustRank } from "../topics/mod.ts";

export const MAX_MATCH_PATHS = 500;
const strict = { additionalProperties: false } as const;

export const FilePathSchema = Type.String({
  minLength: 1,
  maxLength: 1024,
  pattern: "^[^/]",
  description: "A repo-relative file path, e.g. `src/billing/invoice.ts` (no leading slash; a leading `./` is ignored).",
});

export const MatchFilesDto = Type.Object(
  {
    paths: Type.Array(FilePathSchema, { minItems: 1, maxItems: MAX_MATCH_PATHS, description: `1 to ${MAX_MATCH_PATHS} paths.` }),
    repo_id: Type.Optional(
      Type.String({ pattern: UUID_PATTERN, description: "Only topics linked to this repo; without it, topics of any repo (or none)." }),
    ),
  },
  strict,
);
export type MatchFilesDto = Static<typeof MatchFilesDto>;

export const MatchedTopic = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  trust: literalUnion(TRUST_VERDICTS),
  status: literalUnion(TOPIC_STATUSES),
  drifted: Type.Boolean(),
  stale: Type.Boolean(),
  approved_via: Type.Union([literalUnion(APPROVED_VIA), Type.Null()]),
  matched_anchors: Type.Array(Type.String(), { description: "The topic's anchors that match this file." }),
});
export type MatchedTopic = Static<typeof MatchedTopic>;

export const MatchFilesResult = Type.Object({
  files: Type.Array(
    Type.Object({
      path: Type.String(),
      topics: Type.Array(MatchedTopic, {
        description: "Reviewed first, then proposed, then draft; within a verdict, drifted first, then the most recently updated.",
      }),
    }),
    { description: "One entry per distinct requested path, in request order." },
  ),
  truncated: Type.Boolean({ description: "More than 5,000 topics were candidates and only the first 5,000 (in list order) were matched." }),
});
export type MatchFilesResult = Static<typeof MatchFilesResult>;

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
