import type { IdempotencyRecord } from "../../../core/credits/model.ts";
import type { IdempotencyBegin, IdempotencyStore } from "../../../core/credits/ports.ts";
import type { CreditTables } from "./tables.ts";

const keyOf = (workspaceId: string, scope: string, key: string) => `${workspaceId}:${scope}:${key}`;

export class MemoryIdempotencyStore implements IdempotencyStore {
  constructor(private readonly t: CreditTables) {}

  async begin(record: IdempotencyRecord, staleBefore: string): Promise<IdempotencyBegin> {
    const k = keyOf(record.workspace_id, record.scope, record.key);
    const prior = this.t.idempotency.get(k);
    const replaceable = !prior || prior.expires_at <= record.created_at || (prior.state === "pending" && prior.created_at < staleBefore);
    if (replaceable) {
      this.t.idempotency.set(k, structuredClone(record));
      return { kind: "started" };
    }
    if (prior.fingerprint !== record.fingerprint) return { kind: "mismatch" };
    if (prior.state === "pending") return { kind: "pending" };
    return { kind: "done", record: structuredClone(prior) };
  }

  async finish(workspaceId: string, scope: string, key: string, answer: { status: number; body: unknown }): Promise<void> {
    const prior = this.t.idempotency.get(keyOf(workspaceId, scope, key));
    if (prior) Object.assign(prior, { state: "done", status: answer.status, body: structuredClone(answer.body) });
  }

  async abandon(workspaceId: string, scope: string, key: string, fingerprint: string): Promise<void> {
    const k = keyOf(workspaceId, scope, key);
    const prior = this.t.idempotency.get(k);
    if (prior && prior.state === "pending" && prior.fingerprint === fingerprint) this.t.idempotency.delete(k);
  }
}
