import { CONTACT_TRANSFER_KINDS as K } from "../../../core/contacts/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoKind } from "../radar/mongo-kind.ts";
import type { ContactCollections } from "./collections.ts";
import { tokenKey, unlockKey } from "./documents.ts";

/** The documents whose `_id` starts `<workspace_id>:` (the `_id` index serves it), or all. */
const underWorkspace = (ws: string | undefined) => (ws === undefined ? {} : { _id: { $gte: `${ws}:`, $lt: `${ws};` } });

/**
 * Contacts' kinds on MongoDB (ADR 067, 072): unlocks under `<workspace_id>:<entity_id>:<kind>`,
 * leases under `<workspace_id>:<token>`, both read in `_id` order: the workspace, then the key
 * (entity ids are ids of one length, so `<entity_id>:<kind>` sorts as the pair does). The ends of
 * tokens' unlocks (radar_unlock_ends) do not move: one exists only while a finish or expiry is
 * under way, and a stopped source has none unless a process died between its writes, whose
 * lease the target's sweep then resolves.
 */
export function mongoContactTransfer(c: ContactCollections): TransferKind[] {
  return [
    mongoKind({
      ...K.unlocks,
      collection: c.radarUnlocks,
      filter: underWorkspace,
      sort: () => ({ _id: 1 }),
      idOf: (d) => unlockKey(d as never),
    }),
    mongoKind({
      ...K.unlockLeases,
      collection: c.radarUnlockLeases,
      filter: underWorkspace,
      sort: () => ({ _id: 1 }),
      idOf: (d) => tokenKey(d.workspace_id as string, d.token as string),
    }),
  ];
}
