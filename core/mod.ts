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
export * from "./topics/ports.ts";
export * from "./topics/merge-patch.ts";
export * from "./topics/proposals.ts";
export * from "./topics/relation-model.ts";
export * from "./topics/ports.ts";
export * from "./topics/relations.ts";
export * from "./topics/graph.ts";
export * from "./code-context/anchor-base.ts";
export * from "./code-context/ports.ts";
export * from "./code-context/ports.ts";
export * from "./code-context/ports.ts";
export * from "./code-context/anchor-validation.ts";
export * from "./code-context/anchor-match.ts";
export * from "./code-context/repo-index.ts";
export * from "./code-context/repo-index-job.ts";
export * from "./code-context/repo-refresh.ts";
export * from "./code-context/match-files.ts";
export * from "./code-context/mark-drift.ts";
export * from "./code-context/ports.ts";
export * from "./code-context/retrieve.ts";
export * from "./code-context/audit.ts";
export * from "./code-context/hooks.ts";
export * from "./jobs/mod.ts";
export * from "./webhooks/ports.ts";
export * from "./webhooks/signature.ts";
export * from "./code-context/code-host-webhook.ts";

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
export * from "./collections/entities.ts";
export * from "./collections/context.ts";
export * from "./collections/doctor.ts";
