import type { ContactUnlock } from "../../../core/contacts/model.ts";
import type { UnlockLease } from "../../../core/contacts/ports.ts";
import { CONTACT_TRANSFER_KINDS as K } from "../../../core/contacts/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { asDoc, memoryKind } from "../radar/memory-kind.ts";
import type { ContactTables } from "./tables.ts";

/** Contacts' kinds on memory (ADR 067, 072): unlocks by their claim key, leases by their token. */
export function memoryContactTransfer(t: ContactTables): TransferKind[] {
  return [
    memoryKind(K.unlocks, () => [...t.radarUnlocks.values()].map(asDoc), (d) => {
      const u = d as unknown as ContactUnlock;
      const key = `${u.workspace_id}:${u.entity_id}:${u.kind}`;
      if (t.radarUnlocks.has(key)) return false;
      t.radarUnlocks.set(key, u);
      return true;
    }),
    memoryKind(K.unlockLeases, () => [...t.radarUnlockLeases.values()].map(asDoc), (d) => {
      const l = d as unknown as UnlockLease;
      const key = `${l.workspace_id}:${l.token}`;
      if (t.radarUnlockLeases.has(key)) return false;
      t.radarUnlockLeases.set(key, l);
      return true;
    }),
  ];
}
