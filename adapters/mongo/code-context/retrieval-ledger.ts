import type { CodeContextCollections } from "./collections.ts";
import type { Delivery, RetrievalLedger } from "../../../core/code-context/ports.ts";

export interface DeliveryDoc {
  /** `${workspace_id}:${session_id}:${topic_id}`: one delivery per topic and session. */
  _id: string;
  workspace_id: string;
  session_id: string;
  topic_id: string;
  version: number;
  delivered_at: string;
}

const id = (ws: string, session: string, topic: string) => `${ws}:${session}:${topic}`;

/** Last writer wins per (session, topic): the ledger only decides what to leave out of a bundle. */
export class MongoRetrievalLedger implements RetrievalLedger {
  constructor(private readonly c: CodeContextCollections) {}

  async delivered(workspaceId: string, sessionId: string, topicIds: readonly string[], since: string): Promise<Map<string, number>> {
    if (topicIds.length === 0) return new Map();
    const docs = await this.c.retrievalDeliveries
      .find({ _id: { $in: topicIds.map((t) => id(workspaceId, sessionId, t)) }, workspace_id: workspaceId, delivered_at: { $gte: since } })
      .toArray();
    return new Map(docs.map((d) => [d.topic_id, d.version]));
  }

  async record(workspaceId: string, sessionId: string, deliveries: readonly Delivery[], at: string, forgetBefore: string): Promise<void> {
    await this.c.retrievalDeliveries.deleteMany({ workspace_id: workspaceId, delivered_at: { $lt: forgetBefore } });
    for (const d of deliveries) {
      const doc: DeliveryDoc = {
        _id: id(workspaceId, sessionId, d.topic_id),
        workspace_id: workspaceId,
        session_id: sessionId,
        topic_id: d.topic_id,
        version: d.version,
        delivered_at: at,
      };
      await this.c.retrievalDeliveries.replaceOne({ _id: doc._id }, doc, { upsert: true });
    }
  }
}
