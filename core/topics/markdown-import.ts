import { actorKind, assertCanWrite, type Principal } from "../access/mod.ts";
import { emit } from "../events/mod.ts";
import type { ArchiveLimits } from "../kernel/archive-entries.ts";
import { readArchive } from "../kernel/archive-reader.ts";
import { AppError, conflict } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { badQuery, parseBool, parseEnum, type QueryBool } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import {
  IMPORT_STATUSES,
  type ImportFileLine,
  type ImportStatus,
  TOPIC_IMPORT_LIMITS,
  type TopicImportReport,
} from "./markdown-import-dto.ts";
import { type LinkedNote, sortFiles, wantsFile } from "./markdown-import-files.ts";
import { applyImport } from "./markdown-import-write.ts";
import { type Proposal, type Relation, relationKey, type Topic } from "./model.ts";
import { canRelateTopics } from "./policy.ts";
import type { TopicDeps, TopicImportBatch, TopicWrite } from "./ports.ts";
import { topicsBySlug } from "./topic-access.ts";
import { changeTopic, topicEvent } from "./topic-change.ts";
import { releaseCapacity } from "../kernel/capacity.ts";

/**
 * `POST /topics/import`: a `.tar.gz` or `.zip` of Markdown files (an Obsidian vault, an Outline
 * or Notion export) becomes topics, their links relations (`references`, from the linking file to the linked one). Everything is checked
 * before anything is written, and then everything is written or nothing (on MongoDB: in order,
 * and running it again completes it). docs/decisions/064-markdown-import.md.
 */

export interface TopicImportQuery {
  dry_run?: QueryBool;
  status?: string;
}

/** How `IMPORT_INVALID` lists a file's problems: its path, and the problem in words. */
function invalid(problems: Array<{ path: string; field: string; message: string }>, files: number): AppError {
  const listed = problems.slice(0, TOPIC_IMPORT_LIMITS.maxProblems).map((p) => ({ path: p.path, message: p.message }));
  return new AppError(
    "IMPORT_INVALID",
    `Cannot import: ${problems.length} problem${problems.length === 1 ? "" : "s"} in ${files} file${
      files === 1 ? "" : "s"
    }; nothing was written`,
    listed,
    { problems: problems.length },
  );
}

function parseStatus(raw: string | undefined): ImportStatus {
  if (raw === "reviewed") throw badQuery("status", "imported topics arrive as draft or proposed; Knowledge is made by review");
  return parseEnum("status", raw, IMPORT_STATUSES) ?? "draft";
}

const EDITED = ["title", "body", "tags"] as const;
type Edit = Partial<Pick<Topic, (typeof EDITED)[number]>>;

/** The fields of `note` that differ from `topic`'s. */
function editOf(topic: Topic, note: LinkedNote): Edit {
  const edit: Edit = {};
  if (topic.title !== note.title) edit.title = note.title;
  if (topic.body !== note.body) edit.body = note.body;
  if (JSON.stringify(topic.tags) !== JSON.stringify(note.tags)) edit.tags = note.tags;
  return edit;
}

const sameEdit = (a: Record<string, unknown>, b: Edit) =>
  Object.keys(a).length === Object.keys(b).length && EDITED.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));

interface Planned {
  line: ImportFileLine;
  /** The topic the file is (or will be), for relations; null when it is skipped. */
  topicId: string | null;
  /** That topic's slug now (a moved topic's differs from the file's). */
  topicSlug: string | null;
}

/**
 * Imports the archive `body` into `ws`. `maxArchiveBytes` is the host's IMPORT_LIMIT_BYTES. A dry
 * run reads and checks everything and answers the same report, writing nothing.
 */
export async function importMarkdownTopics(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  body: ReadableStream<Uint8Array>,
  query: TopicImportQuery,
  maxArchiveBytes: number,
): Promise<TopicImportReport> {
  assertCanWrite(p, "import topics");
  const dryRun = parseBool("dry_run", query.dry_run) ?? false;
  const status = parseStatus(query.status);
  const limits: ArchiveLimits = {
    maxBytes: maxArchiveBytes,
    maxEntries: TOPIC_IMPORT_LIMITS.maxFiles,
    maxExpandedBytes: TOPIC_IMPORT_LIMITS.maxExpandedBytes,
    maxFileBytes: TOPIC_IMPORT_LIMITS.maxMarkdownBytes,
    maxReadBytes: TOPIC_IMPORT_LIMITS.maxMarkdownTotalBytes,
  };
  const files = await readArchive(body, limits, wantsFile);
  const sorted = sortFiles(files);
  if (sorted.problems.length > 0) throw invalid(sorted.problems, new Set(sorted.problems.map((x) => x.path)).size);

  const now = deps.clock.now();
  const existing = await existingTopics(deps, ws, [...sorted.notes.values()].map((n) => n.slug));

  const batch: TopicImportBatch = { workspaceId: ws.id, inserts: [], updates: [], proposals: [], relations: [] };
  const planned = new Map<string, Planned>();
  for (const note of sorted.notes.values()) {
    planned.set(note.path, await planNote(deps, p, ws, note, existing.get(note.slug) ?? null, status, now, batch));
  }
  const relations = await planRelations(deps, p, ws, sorted.notes.values(), planned, batch, now);

  const report = reportOf(sorted.order, planned, batch, relations, dryRun, status);
  if (dryRun) return report;
  const slugOf = new Map([...planned.values()].flatMap((x) => (x.topicId && x.topicSlug ? [[x.topicId, x.topicSlug] as const] : [])));
  await write(deps, p, ws, batch, slugOf);
  return report;
}

/** The workspace's topics with these slugs, by slug (asked a thousand at a time). */
async function existingTopics(deps: TopicDeps, ws: Workspace, slugs: string[]): Promise<Map<string, Topic>> {
  const existing = new Map<string, Topic>();
  for (let i = 0; i < slugs.length; i += 1000) {
    for (const [slug, topic] of await topicsBySlug(deps, ws, slugs.slice(i, i + 1000))) existing.set(slug, topic);
  }
  return existing;
}

type RelationCounts = TopicImportReport["relations"];

/** Relations: one per link from a topic to another (`references` has a direction), none twice. */
async function planRelations(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  notes: Iterable<LinkedNote>,
  planned: Map<string, Planned>,
  batch: TopicImportBatch,
  now: Date,
): Promise<RelationCounts> {
  const at = now.toISOString();
  const relate = canRelateTopics(p);
  const known = await knownRelations(deps, ws, planned, batch);
  const relations = { type: "references" as const, created: 0, unchanged: 0, skipped: 0, skipped_reason: null as string | null };
  const keys = new Set<string>();
  for (const note of notes) {
    const from = planned.get(note.path)!;
    for (const target of note.targets) {
      const to = planned.get(target)!;
      if (!from.topicId || !to.topicId) {
        relations.skipped++;
        relations.skipped_reason ??= "a linked file's topic is archived";
        continue;
      }
      if (from.topicId === to.topicId) continue;
      const key = relationKey(from.topicId, to.topicId, "references");
      if (keys.has(key)) continue;
      keys.add(key);
      if (known.has(key)) relations.unchanged++;
      else if (!relate) {
        relations.skipped++;
        relations.skipped_reason = "adding relations takes scope topics:write, which this credential lacks";
      } else {
        relations.created++;
        batch.relations.push({
          id: uuidv7(now.getTime()),
          workspace_id: ws.id,
          from_topic_id: from.topicId,
          to_topic_id: to.topicId,
          type: "references",
          created_at: at,
          created_by: p.identityId,
        });
      }
    }
  }
  return relations;
}

/** The keys of the relations already among the planned topics that exist (not being inserted). */
async function knownRelations(
  deps: TopicDeps,
  ws: Workspace,
  planned: Map<string, Planned>,
  batch: TopicImportBatch,
): Promise<Set<string>> {
  const known = new Set<string>();
  const existingIds = [
    ...new Set(
      [...planned.values()].flatMap((x) => (x.topicId && !batch.inserts.some((w) => w.topic.id === x.topicId) ? [x.topicId] : [])),
    ),
  ];
  for (let i = 0; i < existingIds.length; i += 1000) {
    const ids = existingIds.slice(i, i + 1000);
    for (const r of await deps.stores.relations.ofTopics(ws.id, ids, ids.length * 1000)) {
      known.add(relationKey(r.from_topic_id, r.to_topic_id, r.type));
    }
  }
  return known;
}

/** The report: a line per file in archive order, and the counts of each outcome. */
function reportOf(
  order: Array<{ path: string; skipped: string | null }>,
  planned: Map<string, Planned>,
  batch: TopicImportBatch,
  relations: RelationCounts,
  dryRun: boolean,
  status: ImportStatus,
): TopicImportReport {
  const lines = order.map(({ path, skipped }): ImportFileLine => {
    if (skipped !== null) return skippedLine(path, skipped);
    const line = planned.get(path)!.line;
    return dryRun
      ? { ...line, topic_id: batch.inserts.some((w) => w.topic.id === line.topic_id) ? null : line.topic_id, proposal_id: null }
      : line;
  });
  const count = (o: ImportFileLine["outcome"]) => lines.filter((l) => l.outcome === o).length;
  return {
    dry_run: dryRun,
    status,
    counts: {
      created: count("created"),
      updated: count("updated"),
      suggested: count("suggested"),
      unchanged: count("unchanged"),
      skipped: count("skipped"),
    },
    relations,
    files: lines,
  };
}

function skippedLine(path: string, reason: string): ImportFileLine {
  return {
    path,
    outcome: "skipped",
    reason,
    slug: null,
    title: null,
    topic_id: null,
    proposal_id: null,
    links: 0,
    unresolved_links: [],
    warnings: [],
  };
}

/** What one file does to its topic, added to `batch`, and its report line. */
async function planNote(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  note: LinkedNote,
  topic: Topic | null,
  status: ImportStatus,
  now: Date,
  batch: TopicImportBatch,
): Promise<Planned> {
  const line: ImportFileLine = {
    path: note.path,
    outcome: "unchanged",
    reason: null,
    slug: note.slug,
    title: note.title,
    topic_id: topic?.id ?? null,
    proposal_id: null,
    links: note.targets.length,
    unresolved_links: note.unresolved,
    warnings: note.warnings,
  };
  if (topic === null) {
    const created = newTopic(p, ws, note, status, now);
    batch.inserts.push({ topic: created, event: topicEvent(p, created, "topic.created", now, { status, import: note.path }) });
    return { line: { ...line, outcome: "created", topic_id: created.id }, topicId: created.id, topicSlug: created.slug };
  }
  if (topic.slug !== note.slug) {
    line.warnings = [...line.warnings, `the slug ${note.slug} now names the topic ${topic.slug} (moved or merged)`];
  }
  if (topic.status === "archived") {
    return {
      line: { ...line, outcome: "skipped", reason: `its topic (${topic.slug}) is archived`, topic_id: topic.id },
      topicId: null,
      topicSlug: null,
    };
  }
  const edit = editOf(topic, note);
  const same = { topicId: topic.id, topicSlug: topic.slug };
  if (Object.keys(edit).length === 0) return { line: { ...line, reason: "the topic already says the same" }, ...same };
  if (topic.status !== "reviewed") {
    batch.updates.push(changeTopic(p, topic, edit, "topic.updated", now, { fields: Object.keys(edit), import: note.path }));
    return { line: { ...line, outcome: "updated" }, ...same };
  }
  // A reviewed topic does not change silently: the change waits as a suggested edit for review.
  const open = await deps.stores.proposals.list(ws.id, { topicId: topic.id, status: "open" }, "newest", { limit: 200, offset: 0 });
  if (open.items.some((x) => sameEdit(x.patch as Record<string, unknown>, edit))) {
    return { line: { ...line, reason: "the topic is reviewed and an open suggested edit already proposes this text" }, ...same };
  }
  const proposal: Proposal = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    topic_id: topic.id,
    summary: `Imported from ${note.path}`.slice(0, 500),
    patch: edit,
    base_version: topic.version,
    status: "open",
    author_id: p.identityId,
    via: actorKind(p),
    created_at: now.toISOString(),
    decided_at: null,
    decided_by: null,
    merged_version: null,
  };
  batch.proposals.push(proposal);
  return { line: { ...line, outcome: "suggested", proposal_id: proposal.id }, ...same };
}

function newTopic(p: Principal, ws: Workspace, note: LinkedNote, status: ImportStatus, now: Date): Topic {
  const at = now.toISOString();
  return {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    slug: note.slug,
    title: note.title,
    body: note.body,
    tags: note.tags,
    area_id: null,
    repo_id: null,
    anchors: [],
    kind: "note",
    origin: actorKind(p) === "agent" ? "auto" : "manual",
    source_url: null,
    owner_id: p.identityId,
    author_id: p.identityId,
    status,
    governance: { authoritative: false, approved_by: null, approved_at: null },
    approved_via: null,
    drift: null,
    merged_into: null,
    merged_from: [],
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** Claims the plan's units for the new topics, applies the batch, publishes its events. */
async function write(deps: TopicDeps, p: Principal, ws: Workspace, batch: TopicImportBatch, slugOf: Map<string, string>): Promise<void> {
  const n = batch.inserts.length;
  if (deps.capacity && n > 0) await deps.capacity.claim(ws, "topics", n);
  // Without a transaction a failure may leave part written: its units stay claimed then (an
  // over-count, never an under-count; running the import again creates only what is missing).
  const atomic = deps.stores.topicImports !== undefined;
  let result: Awaited<ReturnType<typeof applyImport>>;
  try {
    result = await applyImport(deps, batch);
  } catch (e) {
    if (atomic) await releaseCapacity(deps.capacity, ws, "topics", n);
    throw e;
  }
  if (result !== "ok") {
    const what = "slug" in result ? `topic ${result.slug}` : `topic ${result.topicId}`;
    if (atomic) {
      await releaseCapacity(deps.capacity, ws, "topics", n);
      throw conflict(`Cannot import: ${what} changed meanwhile (${result.refused}); nothing was written, run the import again`, {
        refused: result.refused,
      });
    }
    throw conflict(
      `Cannot import: ${what} changed meanwhile (${result.refused}); part of the import was written on this backend, run the import again to complete it`,
      { refused: result.refused },
    );
  }
  const published = (w: TopicWrite) =>
    emit(deps, ws.id, w.event.type, p, { topic_id: w.topic.id, slug: w.topic.slug, version: w.topic.version });
  for (const w of batch.inserts) await published(w);
  for (const w of batch.updates) await published(w);
  for (const x of batch.proposals) {
    await emit(deps, ws.id, "proposal.opened", p, {
      proposal_id: x.id,
      topic_id: x.topic_id,
      slug: slugOf.get(x.topic_id) ?? null,
      fields: Object.keys(x.patch as object),
    });
  }
  for (const r of batch.relations as Relation[]) {
    await emit(deps, ws.id, "relation.added", p, {
      relation_id: r.id,
      type: r.type,
      from: slugOf.get(r.from_topic_id) ?? null,
      to: slugOf.get(r.to_topic_id) ?? null,
    });
  }
}
