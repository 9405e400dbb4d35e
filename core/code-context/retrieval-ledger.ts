/**
 * What a retrieval session has already been given, so `POST /topics/retrieve` does not fill an
 * agent's context twice. Keyed by (workspace, session, topic); the version says which text went.
 */
export interface Delivery {
  topic_id: string;
  version: number;
}

export interface RetrievalLedger {
  /** Of `topicIds`, those delivered in the session at or after `since`, with the version sent. */
  delivered(workspaceId: string, sessionId: string, topicIds: readonly string[], since: string): Promise<Map<string, number>>;
  /** Records deliveries (replacing earlier ones of the same topic) and forgets the workspace's deliveries before `forgetBefore`. */
  record(workspaceId: string, sessionId: string, deliveries: readonly Delivery[], at: string, forgetBefore: string): Promise<void>;
}
