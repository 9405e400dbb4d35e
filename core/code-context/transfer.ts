/**
 * Code context's transfer kinds (ADR 067, ADR 071). Kept data only: a repo's file index (read from
 * the code host, which a copy must not have to reach) and what retrieval sessions were given.
 * The anchor index, topic heads and the anchor and topic versions are derived from topics: the
 * topics kind's write moves the versions, and the rest is read off the topics themselves.
 */
export const CODE_CONTEXT_TRANSFER_KINDS = {
  repoIndexes: { name: "code-context.repo_indexes", tenant: true, key: ["repo_id"] },
  deliveries: { name: "code-context.retrieval_deliveries", tenant: true, key: ["session_id", "topic_id"] },
} as const;

/** One delivery of a retrieval session, as the ledger keeps it. */
export interface DeliveryDoc {
  workspace_id: string;
  session_id: string;
  topic_id: string;
  /** The topic version that was sent. */
  version: number;
  delivered_at: string;
}
