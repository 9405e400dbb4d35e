import { type CollectionRecord, diffRecords, type RecordChange } from "../collections/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";

/**
 * The history entry of a record write radar makes on its own (a run's result, an unlocked value,
 * a drift mark): `actor_kind` agent, acting for `actorId` (the run's starter) or no one.
 */
export function agentChange(before: CollectionRecord | null, after: CollectionRecord, actorId: string | null): RecordChange {
  return {
    id: uuidv7(Date.parse(after.updated_at)),
    workspace_id: after.workspace_id,
    collection_id: after.collection_id,
    record_id: after.id,
    version: after.version,
    type: before ? "record.updated" : "record.created",
    actor_id: actorId,
    actor_kind: "agent",
    at: after.updated_at,
    diff: diffRecords(before, after),
    stage: before?.status === after.status ? null : { from: before?.status ?? null, to: after.status },
    outcome: null,
  };
}
