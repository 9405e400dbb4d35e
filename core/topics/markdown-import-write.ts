import type { TopicDeps, TopicImportBatch, TopicImportRefusal } from "./ports.ts";

/**
 * Writes the batch of an import: as one transaction where the backend has `topicImports` (memory,
 * PostgreSQL, PGlite); otherwise (MongoDB, no multi-document transactions: ADR 005) through the
 * ordinary store methods, in an order that running the same import again completes: the new
 * topics, the changed ones, the suggested edits, then the relations. Each write is atomic on its
 * own; a failure midway leaves the writes before it, and the next run finds those topics by slug
 * (`unchanged`), the suggested edits open (`unchanged`) and the relations there.
 * docs/decisions/064-markdown-import.md ("All or nothing").
 */
export async function applyImport(deps: TopicDeps, batch: TopicImportBatch): Promise<"ok" | TopicImportRefusal> {
  const atomic = deps.stores.topicImports;
  if (atomic) return atomic.apply(batch);
  const { topics, proposals, relations } = deps.stores;
  for (const w of batch.inserts) {
    if ((await topics.insert(w)) !== "ok") return { refused: "slug_taken", slug: w.topic.slug };
  }
  for (const w of batch.updates) {
    const r = await topics.update(w);
    if (r === "not_found") return { refused: "topic_gone", topicId: w.topic.id };
    if (r !== "ok") return { refused: r === "slug_taken" ? "slug_taken" : "version_conflict", slug: w.topic.slug };
  }
  for (const x of batch.proposals) await proposals.insert(x);
  for (const r of batch.relations) {
    // "duplicate": a relation added meanwhile is the one this import wanted.
    if ((await relations.insert(r)) === "not_found") return { refused: "topic_gone", topicId: r.from_topic_id };
  }
  return "ok";
}
