import type { Proposal, Relation, Tag, Topic, TopicEvent } from "../../../core/topics/model.ts";

/** The in-memory tables of topics (the adapter's composition shares one object of every module's tables). */
export class TopicTables {
  topics = new Map<string, Topic>();
  /** `${workspace_id}:${slug}` → topic id: old slugs a move left behind. */
  topicRedirects = new Map<string, string>();
  topicEvents = new Map<string, TopicEvent>();
  /** `${workspace_id}:${name}` → tag. */
  tags = new Map<string, Tag>();
  proposals = new Map<string, Proposal>();
  relations = new Map<string, Relation>();
  /** workspace id → its relation change counter. */
  relationMarkers = new Map<string, number>();
  /** workspace id → its anchor version (core/code-context/ports.ts `AnchorIndexStore`). */
  anchorVersions = new Map<string, number>();
}
