import { CONTACT_TRANSFER_KINDS as K } from "../../../core/contacts/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { sqlKind } from "../radar/sql-kind.ts";
import { toUnlock, UNLOCK_COLUMNS } from "./unlock-rows.ts";

/**
 * Contacts' kinds on PostgreSQL/PGlite (migrations 011, 031; ADR 067, 072). A lease's
 * `entity_ids`/`kinds` (the keys its request asked for, which the sweep's expire drops by) are
 * derived from the claims its token holds, as migration 031 derived them: the unlocks are written
 * first.
 */
export function sqlContactTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind(db, {
      ...K.unlocks,
      table: "radar_contact_unlocks",
      columns: UNLOCK_COLUMNS,
      keyColumns: [{ column: "entity_id", text: true }, { column: "kind", text: true }],
      toDoc: (r) => toUnlock(r) as unknown as TransferDoc,
      insert: `insert into radar_contact_unlocks (${UNLOCK_COLUMNS})
        select (d->>'workspace_id')::uuid, d->>'entity_id', d->>'kind', d->>'state', d->>'value', (d->>'credits')::int,
          (d->>'token')::uuid, (d->>'claimed_at')::timestamptz, (d->>'settled_at')::timestamptz
        from jsonb_array_elements($1::text::jsonb) d on conflict do nothing returning 1 as added`,
    }),
    sqlKind(db, {
      ...K.unlockLeases,
      table: "radar_unlock_leases",
      columns: "workspace_id, token, lease_until",
      keyColumns: [{ column: "token" }],
      toDoc: (r) => ({ workspace_id: r.workspace_id as string, token: r.token as string, lease_until: iso(r.lease_until) }),
      insert: `insert into radar_unlock_leases (workspace_id, token, lease_until, entity_ids, kinds)
        select l.workspace_id, l.token, l.lease_until, coalesce(k.entity_ids, '{}'), coalesce(k.kinds, '{}')
        from (
          select (d->>'workspace_id')::uuid as workspace_id, (d->>'token')::uuid as token, (d->>'lease_until')::timestamptz as lease_until
          from jsonb_array_elements($1::text::jsonb) d
        ) l
        left join lateral (
          select array_agg(c.entity_id order by c.entity_id, c.kind) as entity_ids, array_agg(c.kind order by c.entity_id, c.kind) as kinds
          from radar_contact_unlocks c where c.workspace_id = l.workspace_id and c.token = l.token
        ) k on true
        on conflict do nothing returning 1 as added`,
    }),
  ];
}
