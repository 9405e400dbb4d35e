import { Type } from "@sinclair/typebox";
import {
  AUDIT_WEIGHTS,
  AuditReport,
  auditTopics,
  LIMIT_PER_FILE,
  markDrift,
  MarkDriftDto,
  MarkDriftResult,
  matchFiles,
  MatchFilesDto,
  MatchFilesResult,
  retrieve,
  RetrieveDto,
  RetrieveResult,
} from "../../../core/code-context/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { errors } from "../../http/schemas.ts";
import { SlugParams, type TopicDoc as Doc, type TopicScope } from "../topics/table.ts";

/**
 * Code context on the topic table (server/routes/topics/topics.ts registers them on its own instance,
 * so they exist under `/topics` and `/watchers` alike): files matched to topics by their anchors,
 * and drift. docs/decisions/010-code-context.md.
 */

const SessionHeader = Type.Object({
  "x-service-session": Type.String({
    minLength: 1,
    maxLength: 200,
    description: "Required: identifies the calling agent's session (e.g. a coding agent's run). Missing or empty is a 400.",
  }),
});

export function codeContextRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  r.post(
    `${base}/match-files`,
    async ({ workspace, body, set }) => {
      set.status = 201;
      return matchFiles(core, workspace, body);
    },
    {
      parse: "json",
      params: SlugParams,
      headers: SessionHeader,
      body: MatchFilesDto,
      response: { 201: MatchFilesResult, ...errors(400, 401, 404, 413) },
      detail: doc(
        "Match files to topics",
        `For each given repo-relative path, the topics (never archived ones) whose anchors (picomatch globs) match it, with their trust verdict and which anchors matched, in match order: reviewed first, then proposed, then draft; within a verdict drifted first, then the most recently updated. Each file lists its first \`limit_per_file\` topics (1 to ${LIMIT_PER_FILE.max}, default ${LIMIT_PER_FILE.default}) and counts all of them in \`total\` (a list was cut when \`total\` is greater than its length). \`view=full\` (default) repeats each topic's head (slug, title, trust, status, drifted, stale, approved_via) in every file it matches; \`view=compact\` sends each head once in the top-level \`topics\` (in match order) and per file only \`matches: [{ id, matched_anchors }]\`; the answer's \`view\` names its shape. With \`repo_id\`, only topics linked to that repo. Header \`x-service-session\` is required. At most 5,000 candidate topics are considered (\`truncated\` says when more were).`,
      ),
    },
  );
  r.post(
    `${base}/mark-drift`,
    async ({ principal, workspace, body, set }) => {
      set.status = 201;
      return markDrift(core, principal, workspace, body);
    },
    {
      parse: "json",
      params: SlugParams,
      body: MarkDriftDto,
      response: { 201: MarkDriftResult, ...errors(400, 401, 403, 404, 413) },
      detail: doc(
        "Mark topics drifted by changed files",
        "Every topic (not archived; of `repo_id` when given) whose anchors match one of the changed `paths` is marked drifted with the evidence `{ commit, files, at }` (files: the matched paths, newest first, at most 100, kept from earlier drift until cleared) and a `topic.drifted` event. Drifted topics list first; `vouch-ack` (or `approve`) clears the drift. Anyone who may write. The code-host webhook does the same on a push.",
      ),
    },
  );
  r.post(
    `${base}/retrieve`,
    async ({ workspace, body, headers, set }) => {
      set.status = 201;
      return retrieve(core, workspace, headers["x-service-session"], body);
    },
    {
      parse: "json",
      params: SlugParams,
      headers: SessionHeader,
      body: RetrieveDto,
      response: { 201: RetrieveResult, ...errors(400, 401, 404, 413) },
      detail: doc(
        "Retrieve context for an agent",
        "A ranked bundle of topics for a question and/or files, within `budget_tokens` (a token counted as 4 characters): topics whose anchors match the files (strongest), topics holding the question's words (each meaningful word searched on its own; a word scores 3 in a title, 2 in tags, 1 in a body), and topics one relation away from the best of those. Equal relevance ranks reviewed, then proposed, then draft. Each topic carries its trust verdict (trust, drifted, stale, approved_via), why it is here, and its text cut to fit. Topics this `x-service-session` was given in the last 24 hours at the same version are left out (`skipped_delivered`) unless `include_delivered`; a topic changed since is sent again. Notes (drafts) only with `include_notes`; archived topics never.",
      ),
    },
  );
  r.get(`${base}/audit`, ({ workspace }) => auditTopics(core, workspace), {
    params: SlugParams,
    response: { 200: AuditReport, ...errors(400, 401, 404) },
    detail: doc(
      "Context health audit",
      `Counts of what makes the workspace's knowledge less trustworthy (drifted, stale, without an owner; anchors matching nothing, overbroad, or orphaned by a missing repo; proposals open over 7 days), the worst offenders of each kind, and a score: 100 minus, for each kind, its weight times the share of (non-archived) topics it touches (${
        Object.entries(AUDIT_WEIGHTS).map(([k, w]) => `${k} ${w}`).join(", ")
      }; old proposals count as a share of 10). At most 1,000 topics with anchors are checked (\`anchors.sampled\`).`,
    ),
  });
}
