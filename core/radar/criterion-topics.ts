import type { RadarDeps } from "./ports.ts";
import type { Principal } from "../access/mod.ts";
import { AppError, isAppError, validationFailed } from "../kernel/errors.ts";
import { MAX_BODY_LENGTH, type Topic, topicBySlug, type TopicDeps, trustOf, updateTopic, type UpdateTopicDto } from "../topics/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import {
  CRITERION_TAG,
  type CriterionBlock,
  filterProblems,
  parseCriterion,
  type ParsedCriterion,
  renderCriterion,
} from "./criterion-block.ts";
import type { CriterionView, ReviseCriterionDto } from "./dto.ts";
import { assertCanActOnRadar } from "./policy.ts";

/**
 * Criteria are topics (tag `radar-criterion`, one valid `radar-criterion` block): read through
 * topics' public surface, revised as topic edits, so version, trust, history and governance are
 * the topic's.
 */

/** How often a revision without a version is retried when the topic changed under it. */
const UNVERSIONED_ATTEMPTS = 3;

/** The criterion a topic holds, or a 404 saying why it is none (its problems as details). */
function criterionOf(topic: Topic): Extract<ParsedCriterion, { ok: true }> {
  if (!topic.tags.includes(CRITERION_TAG)) {
    throw new AppError("NOT_FOUND", `Criterion not found: topic ${topic.slug} is not tagged ${CRITERION_TAG}`);
  }
  const parsed = parseCriterion(topic.body);
  if (!parsed.ok) {
    const why = parsed.missing ? "has no radar-criterion block" : "has an invalid radar-criterion block";
    throw new AppError("NOT_FOUND", `Criterion not found: topic ${topic.slug} ${why}`, parsed.problems);
  }
  return parsed;
}

function toCriterionView(topic: Topic, block: CriterionBlock): CriterionView {
  return {
    slug: topic.slug,
    title: topic.title,
    kind: block.kind,
    filter: block.filter,
    version: topic.version,
    trust: trustOf(topic.status),
  };
}

export async function getCriterion(deps: TopicDeps, ws: Workspace, slug: string): Promise<CriterionView> {
  const topic = await topicBySlug(deps, ws, slug);
  return toCriterionView(topic, criterionOf(topic).block);
}

/** The topic edit a revision makes: a new body when the filter changes, the title when given. */
function editOf(topic: Topic, parsed: Extract<ParsedCriterion, { ok: true }>, dto: ReviseCriterionDto): UpdateTopicDto {
  const edit: UpdateTopicDto = dto.title === undefined ? {} : { title: dto.title };
  if (dto.filter === undefined) return edit;
  const problems = filterProblems(parsed.block.kind, dto.filter);
  if (problems.length > 0) throw validationFailed(`Invalid filter for a ${parsed.block.kind} criterion`, problems);
  const body = renderCriterion(topic.body, parsed, { kind: parsed.block.kind, filter: dto.filter });
  if (body.length > MAX_BODY_LENGTH) {
    throw validationFailed("Invalid filter: the topic's body would exceed its limit", [{
      path: "/filter",
      message: `the revised body would be longer than ${MAX_BODY_LENGTH} characters`,
    }]);
  }
  return body === topic.body ? edit : { ...edit, body };
}

/**
 * A new version of the criterion's topic, by the same edit `PATCH /topics/{topic}` makes (same
 * permission, governance and version check). With no version given, the edit is based on the
 * version read here, so a concurrent change is never overwritten: it is retried from the new text.
 */
export async function reviseCriterion(
  deps: RadarDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  dto: ReviseCriterionDto,
  expected: number | undefined,
): Promise<CriterionView> {
  assertCanActOnRadar(p, "reviseCriterion");
  for (let attempt = 1;; attempt++) {
    const topic = await topicBySlug(deps, ws, slug);
    const parsed = criterionOf(topic);
    const edit = editOf(topic, parsed, dto);
    try {
      const view = await updateTopic(deps, p, ws, topic.slug, edit, expected ?? topic.version);
      const block = dto.filter === undefined ? parsed.block : { kind: parsed.block.kind, filter: dto.filter };
      return { ...toCriterionView(topic, block), slug: view.slug, title: view.title, version: view.version, trust: view.trust };
    } catch (e) {
      const retry = expected === undefined && attempt < UNVERSIONED_ATTEMPTS && isAppError(e) && e.code === "VERSION_CONFLICT";
      if (!retry) throw e;
    }
  }
}
