/**
 * The service's domain as a runtime-neutral library (Deno, Bun, Node): models, rules, use cases
 * and the ports an embedding app implements (or takes from `adapters/`).
 */
export * from "./kernel/mod.ts";
export * from "./stores.ts";
export * from "./deps.ts";

export * from "./workspaces/model.ts";
export * from "./workspaces/ports.ts";
export * from "./workspaces/bootstrap.ts";
export * from "./workspaces/workspace.ts";
export * from "./workspaces/members.ts";
export * from "./workspaces/areas.ts";
export * from "./workspaces/repos.ts";

export * from "./access/principal.ts";
export * from "./access/policy.ts";
export * from "./access/api-key.ts";
export * from "./access/api-keys.ts";
export * from "./access/authenticate.ts";
export * from "./access/ports.ts";
export * from "./access/secret-box.ts";

export * from "./events/event.ts";
export * from "./events/ports.ts";
export * from "./events/emit.ts";
export * from "./events/stream-end.ts";
export * from "./access/rate-limit.ts";

export * from "./topics/governance.ts";
export * from "./topics/tag-name.ts";
export * from "./topics/topic-slug.ts";
export * from "./topics/staleness.ts";
export * from "./topics/model.ts";
export * from "./topics/ports.ts";
export * from "./topics/search-terms.ts";
export * from "./topics/search-rank.ts";
export * from "./topics/topic-change.ts";
export * from "./topics/topic-query.ts";
export * from "./topics/topic-access.ts";
export * from "./topics/view.ts";
export * from "./topics/topics.ts";
export * from "./topics/transitions.ts";
export * from "./topics/tags.ts";
export * from "./topics/proposal-model.ts";
export * from "./topics/proposal-ports.ts";
export * from "./topics/merge-patch.ts";
export * from "./topics/proposals.ts";
export * from "./topics/relation-model.ts";
export * from "./topics/relation-ports.ts";
export * from "./topics/relations.ts";
export * from "./topics/graph.ts";
export * from "./topics/anchor-base.ts";
export * from "./topics/path-matcher.ts";
export * from "./topics/code-host.ts";
export * from "./topics/repo-index-store.ts";
export * from "./topics/anchor-validation.ts";
export * from "./topics/anchor-match.ts";
export * from "./topics/repo-index.ts";
export * from "./topics/repo-index-job.ts";
export * from "./topics/repo-refresh.ts";
export * from "./topics/match-files.ts";
export * from "./topics/mark-drift.ts";
export * from "./topics/retrieval-ledger.ts";
export * from "./topics/retrieve.ts";
export * from "./topics/audit.ts";
export * from "./jobs/mod.ts";
export * from "./webhooks/ports.ts";
export * from "./webhooks/signature.ts";
export * from "./webhooks/code-host.ts";

export * from "./sharing/model.ts";
export * from "./sharing/ports.ts";
export * from "./sharing/share-token.ts";
export * from "./sharing/share-links.ts";
export * from "./sharing/note-shares.ts";

export * from "./collections/archetype.ts";
export * from "./collections/record-schema.ts";
export * from "./collections/record-validation.ts";
export * from "./collections/record-filter.ts";
export * from "./collections/record-sort.ts";
export * from "./collections/record-aggregate.ts";
export * from "./collections/record-text.ts";
export * from "./collections/record-diff.ts";
export * from "./collections/record-query.ts";
export * from "./collections/entity-key.ts";
export * from "./collections/model.ts";
export * from "./collections/dto.ts";
export * from "./collections/ports.ts";
export * from "./collections/views.ts";
export * from "./collections/collection-rules.ts";
export * from "./collections/collections.ts";
export * from "./collections/records.ts";
export * from "./collections/record-reads.ts";
export * from "./collections/record-projection.ts";
export * from "./collections/entities.ts";
export * from "./collections/context.ts";
export * from "./collections/doctor.ts";
