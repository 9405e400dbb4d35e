import type { IdempotencyRecord } from "../../../core/credits/model.ts";
import type { IdempotencyBegin, IdempotencyStore } from "../../../core/credits/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { CreditCollections } from "./collections.ts";
import type { IdempotencyDoc } from "./documents.ts";

const idOf = (workspaceId: string, scope: string, key: string) => JSON.stringify([workspaceId, scope, key]);

/**
 * The claim is the insert of `_id` (atomic on FerretDB and MongoDB alike). An expired or abandoned
 * record is deleted by `_id` and its `created_at`, then claimed by insert again, so of concurrent
 * takers one wins.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly c: CreditCollections) {}

  async begin(r: IdempotencyRecord, staleBefore: string): Promise<IdempotencyBegin> {
    const _id = idOf(r.workspace_id, r.scope, r.key);
    for (;;) {
      try {
        await this.c.idempotencyKeys.insertOne({
          _id,
          workspace_id: r.workspace_id,
          scope: r.scope,
          key: r.key,
          fingerprint: r.fingerprint,
          state: "pending",
          status: null,
          body: null,
          created_at: r.created_at,
          expires_at: r.expires_at,
        });
        return { kind: "started" };
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const prior = await this.c.idempotencyKeys.findOne({ _id });
      if (!prior) continue;
      if (prior.expires_at <= r.created_at || (prior.state === "pending" && prior.created_at < staleBefore)) {
        await this.c.idempotencyKeys.deleteOne({ _id, created_at: prior.created_at });
        continue;
      }
      if (prior.fingerprint !== r.fingerprint) return { kind: "mismatch" };
      if (prior.state === "pending") return { kind: "pending" };
      return { kind: "done", record: toRecord(prior) };
    }
  }

  async finish(workspaceId: string, scope: string, key: string, answer: { status: number; body: unknown }): Promise<void> {
    await this.c.idempotencyKeys.updateOne(
      { _id: idOf(workspaceId, scope, key) },
      { $set: { state: "done", status: answer.status, body: JSON.stringify(answer.body ?? null) } },
    );
  }

  async abandon(workspaceId: string, scope: string, key: string, fingerprint: string): Promise<void> {
    await this.c.idempotencyKeys.deleteOne({ _id: idOf(workspaceId, scope, key), fingerprint, state: "pending" });
  }
}

function toRecord(d: IdempotencyDoc): IdempotencyRecord {
  return {
    workspace_id: d.workspace_id,
    scope: d.scope,
    key: d.key,
    fingerprint: d.fingerprint,
    state: d.state,
    status: d.status,
    body: d.body === null ? null : JSON.parse(d.body),
    created_at: d.created_at,
    expires_at: d.expires_at,
  };
}
