import type { CodeContextTables } from "./tables.ts";
import type { Delivery, RetrievalLedger } from "../../../core/code-context/ports.ts";

/** A delivery's key in `deliveries` (the transfer reads session and topic back from it). */
export const deliveryKey = (ws: string, session: string, topic: string) => `${ws}\u0000${session}\u0000${topic}`;
const key = deliveryKey;

export class MemoryRetrievalLedger implements RetrievalLedger {
  constructor(private t: CodeContextTables) {}

  async delivered(workspaceId: string, sessionId: string, topicIds: readonly string[], since: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const id of topicIds) {
      const d = this.t.deliveries.get(key(workspaceId, sessionId, id));
      if (d && d.at >= since) out.set(id, d.version);
    }
    return out;
  }

  async record(workspaceId: string, sessionId: string, deliveries: readonly Delivery[], at: string, forgetBefore: string): Promise<void> {
    for (const [k, d] of this.t.deliveries) if (d.workspace_id === workspaceId && d.at < forgetBefore) this.t.deliveries.delete(k);
    for (const d of deliveries) {
      this.t.deliveries.set(key(workspaceId, sessionId, d.topic_id), { workspace_id: workspaceId, version: d.version, at });
    }
  }
}
