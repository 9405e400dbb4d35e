import type { Collection, Db } from "mongodb";
import type { TagDoc, TopicDoc, TopicEventDoc, TopicRedirectDoc } from "./documents.ts";
import type { ProposalDecisionDoc, ProposalDoc, RelationDoc, RelationMarkerDoc } from "./proposal-relation-documents.ts";

/** Topics' collections of one database (their indexes: indexes.ts). */
export interface TopicCollections {
  topics: Collection<TopicDoc>;
  topicEvents: Collection<TopicEventDoc>;
  topicRedirects: Collection<TopicRedirectDoc>;
  tags: Collection<TagDoc>;
  topicProposals: Collection<ProposalDoc>;
  topicProposalDecisions: Collection<ProposalDecisionDoc>;
  topicRelations: Collection<RelationDoc>;
  topicRelationMarkers: Collection<RelationMarkerDoc>;
}

export const TOPIC_COLLECTION_NAMES = {
  topics: "topics",
  topicEvents: "topic_events",
  topicRedirects: "topic_redirects",
  tags: "tags",
  topicProposals: "topic_proposals",
  topicProposalDecisions: "topic_proposal_decisions",
  topicRelations: "topic_relations",
  topicRelationMarkers: "topic_relation_markers",
} as const;

export function topicCollections(db: Db): TopicCollections {
  return {
    topics: db.collection<TopicDoc>(TOPIC_COLLECTION_NAMES.topics),
    topicEvents: db.collection<TopicEventDoc>(TOPIC_COLLECTION_NAMES.topicEvents),
    topicRedirects: db.collection<TopicRedirectDoc>(TOPIC_COLLECTION_NAMES.topicRedirects),
    tags: db.collection<TagDoc>(TOPIC_COLLECTION_NAMES.tags),
    topicProposals: db.collection<ProposalDoc>(TOPIC_COLLECTION_NAMES.topicProposals),
    topicProposalDecisions: db.collection<ProposalDecisionDoc>(TOPIC_COLLECTION_NAMES.topicProposalDecisions),
    topicRelations: db.collection<RelationDoc>(TOPIC_COLLECTION_NAMES.topicRelations),
    topicRelationMarkers: db.collection<RelationMarkerDoc>(TOPIC_COLLECTION_NAMES.topicRelationMarkers),
  };
}
