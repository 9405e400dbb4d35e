/**
 * Topics: notes that become trusted knowledge through review, with tags, search, history,
 * suggested edits (proposals), typed relations and the graph. Public surface of the module: its
 * model, ports, policy, pure rules and use cases; write plumbing (`commit`, `changeTopic`,
 * `checkVersion`, `findTopic`) stays inside.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";

// Pure rules
export * from "./governance.ts";
export * from "./tag-name.ts";
export * from "./topic-slug.ts";
export * from "./staleness.ts";
export * from "./search-terms.ts";
export * from "./search-rank.ts";
export { toTopicView, trustOf } from "./view.ts";

// Use cases
export {
  createTopic,
  deleteTopic,
  getTopic,
  HISTORY_LIMIT,
  listTopicEvents,
  listTopicPage,
  listTopics,
  SEARCH_TOTAL_CAP,
  searchTopicPage,
  searchTopics,
  updateTopic,
} from "./topics.ts";
export { MAX_FILTER_TAGS, SEARCH_LIMIT, type TimelineQuery, type TopicListQuery, type TopicSearchQuery } from "./topic-query.ts";
export type { TopicReadCacheLimits } from "./topic-read-cache.ts";
export { topicBySlug, topicsBySlug } from "./topic-access.ts";
export * from "./transitions.ts";
export * from "./drift.ts";
export * from "./tags.ts";
export {
  listOpenProposals,
  listTopicProposals,
  MAX_BASE_DISTANCE,
  mergeProposal,
  openProposal,
  type ProposalListQuery,
  rejectProposal,
} from "./proposals.ts";
export * from "./relations.ts";
export { importMarkdownTopics, type TopicImportQuery } from "./markdown-import.ts";
export * from "./markdown-import-dto.ts";
export {
  type FullGraph,
  fullGraph,
  type FullGraphQuery,
  GRAPH_DEPTH,
  GRAPH_SHAPES,
  type GraphShape,
  MAX_FULL_GRAPH_EDGES,
  MAX_FULL_GRAPH_NODES,
  MAX_GRAPH_LEVEL_RELATIONS,
  MAX_GRAPH_NODES,
  topicGraph,
} from "./graph.ts";
export * from "./transfer.ts";
