/**
 * Topics' transfer kinds (ADR 067, ADR 071), in write order: the tag registry first (a topic's
 * write registers the tags it carries, and must find a copied tag's description in place), then
 * topics, then what names a topic. One list the three adapters' transfer.ts import. Documents are
 * the stored types (`Tag`, `Topic`, `TopicEvent`, `Proposal`, `Relation`) and `TopicRedirect`;
 * what a store derives (tag counts, search terms, trust rank, tag lists, head terms, anchor,
 * topic and relation versions) is rebuilt by each kind's write, never moved.
 */
export const TOPIC_TRANSFER_KINDS = {
  tags: { name: "topics.tags", tenant: true, key: ["name"] },
  topics: { name: "topics.topics", tenant: true, key: ["id"] },
  redirects: { name: "topics.redirects", tenant: true, key: ["slug"] },
  events: { name: "topics.events", tenant: true, key: ["id"] },
  proposals: { name: "topics.proposals", tenant: true, key: ["id"] },
  relations: { name: "topics.relations", tenant: true, key: ["id"] },
} as const;

/** An old slug a move left behind, and the topic it answers with. */
export interface TopicRedirect {
  workspace_id: string;
  slug: string;
  topic_id: string;
}
