import type { CodeContextDeps } from "./ports.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { checkAnchors } from "./anchor-validation.ts";
import { staleBefore, type Topic, type TopicFilter } from "../topics/mod.ts";
import { loadFileList } from "./repo-index.ts";
import { AuditReport, MAX_ANCHORED_CHECKED, PROPOSAL_PAGE } from "./dto.ts";

export const OFFENDERS_PER_KIND = 10;
export const OLD_PROPOSAL_DAYS = 7;
const DAY_MS = 86_400_000;

/** How much each kind of problem weighs in the score, as a share of the topics it touches. */
export const AUDIT_WEIGHTS = { drifted: 30, stale: 20, anchors: 20, no_owner: 10, old_proposals: 10, orphaned: 10 } as const;

const offender = (t: Topic, detail?: string) => ({ id: t.id, slug: t.slug, title: t.title, ...(detail ? { detail } : {}) });

export async function auditTopics(deps: CodeContextDeps, ws: Workspace): Promise<AuditReport> {
  const now = deps.clock.now();
  const stale = { is: true, before: staleBefore(ws.settings.review_interval_days, now) };
  const top = { limit: OFFENDERS_PER_KIND, offset: 0 };
  const list = (f: TopicFilter, page = top) => deps.stores.topics.list(ws.id, f, page);
  const [all, reviewed, drifted, staleOnes, ownerless, anchored, proposals] = await Promise.all([
    list({}, { limit: 0, offset: 0 }),
    list({ status: "reviewed" }, { limit: 0, offset: 0 }),
    list({ drifted: true }),
    list({ stale }),
    list({ hasOwner: false }),
    list({ hasAnchors: true }, { limit: MAX_ANCHORED_CHECKED, offset: 0 }),
    deps.stores.proposals.list(ws.id, { status: "open" }, "oldest", { limit: PROPOSAL_PAGE, offset: 0 }),
  ]);

  const anchors = {
    topics_checked: anchored.items.length,
    sampled: anchored.total > anchored.items.length,
    zero: 0,
    overbroad: 0,
    orphaned: 0,
  };
  const zeroTopics: ReturnType<typeof offender>[] = [];
  const broadTopics: ReturnType<typeof offender>[] = [];
  const orphanTopics: ReturnType<typeof offender>[] = [];
  let anchorProblemTopics = 0;
  let orphanedTopics = 0;
  // Each linked repo is read once, however many topics anchor to it.
  const repoIds = [...new Set(anchored.items.flatMap((t) => (t.repo_id ? [t.repo_id] : [])))];
  const linked = new Set((await Promise.all(repoIds.map((id) => deps.stores.repos.get(ws.id, id)))).flatMap((r) => (r ? [r.id] : [])));
  for (const t of anchored.items) {
    if (!t.repo_id || !linked.has(t.repo_id)) {
      anchors.orphaned += t.anchors.length;
      orphanedTopics++;
      if (orphanTopics.length < OFFENDERS_PER_KIND) orphanTopics.push(offender(t, t.repo_id ? "its repo was removed" : "no repo linked"));
      continue;
    }
    if (!deps.paths) continue;
    const loaded = await loadFileList(deps, ws.id, t.repo_id);
    if (!loaded.head) continue;
    const checks = checkAnchors(loaded.list, t.anchors, deps.paths);
    const zero = checks.filter((c) => c.rating === "zero");
    const broad = checks.filter((c) => c.rating === "overbroad");
    anchors.zero += zero.length;
    anchors.overbroad += broad.length;
    if (zero.length + broad.length > 0) anchorProblemTopics++;
    if (zero.length > 0 && zeroTopics.length < OFFENDERS_PER_KIND) zeroTopics.push(offender(t, zero.map((c) => c.pattern).join(", ")));
    if (broad.length > 0 && broadTopics.length < OFFENDERS_PER_KIND) {
      broadTopics.push(offender(t, broad.map((c) => `${c.pattern} (${c.matches})`).join(", ")));
    }
  }

  const weekAgo = new Date(now.getTime() - OLD_PROPOSAL_DAYS * DAY_MS).toISOString();
  const old = proposals.items.filter((x) => x.created_at < weekAgo);
  const total = all.total;
  const share = (n: number) => (total === 0 ? 0 : Math.min(1, n / total));
  const penalty = AUDIT_WEIGHTS.drifted * share(drifted.total) +
    AUDIT_WEIGHTS.stale * share(staleOnes.total) +
    AUDIT_WEIGHTS.anchors * share(anchorProblemTopics) +
    AUDIT_WEIGHTS.no_owner * share(ownerless.total) +
    AUDIT_WEIGHTS.old_proposals * Math.min(1, old.length / 10) +
    AUDIT_WEIGHTS.orphaned * share(orphanedTopics);

  return {
    generated_at: now.toISOString(),
    score: Math.max(0, Math.round(100 - penalty)),
    topics: { total, reviewed: reviewed.total, drifted: drifted.total, stale: staleOnes.total, no_owner: ownerless.total },
    anchors,
    proposals: { pending_over_7_days: old.length, capped: old.length === PROPOSAL_PAGE },
    offenders: {
      drifted: drifted.items.map((t) => offender(t, t.drift?.commit ? `commit ${t.drift.commit}` : undefined)),
      stale: staleOnes.items.map((t) => offender(t, t.governance.approved_at ? `approved ${t.governance.approved_at}` : undefined)),
      zero_anchors: zeroTopics,
      overbroad_anchors: broadTopics,
      orphaned_anchors: orphanTopics,
      no_owner: ownerless.items.map((t) => offender(t)),
      old_proposals: old.slice(0, OFFENDERS_PER_KIND).map((x) => ({
        id: x.id,
        topic_id: x.topic_id,
        summary: x.summary,
        created_at: x.created_at,
      })),
    },
  };
}
