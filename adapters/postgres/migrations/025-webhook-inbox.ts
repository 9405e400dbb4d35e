/**
 * The webhook inbox (docs/decisions/042-webhook-inbox.md): a delivery is recorded with its
 * verified payload and state `received` in one insert, applied under a lease, then marked
 * `applied`. Claims recorded before this migration had their effect applied (or lost, which
 * nothing can tell now): they become `applied` with an empty payload. Identities keep the time
 * of the last identity-provider event applied to them, so an older one arriving late is stale.
 */
export default {
  version: 25,
  name: "webhook-inbox",
  sql: /* sql */ `
alter table webhook_deliveries
  add column payload text not null default '',
  add column state text not null default 'applied' check (state in ('received', 'applied')),
  add column lease_until timestamptz,
  add column attempts integer not null default 1 check (attempts >= 1),
  add column applied_at timestamptz,
  add column outcome text;
update webhook_deliveries set lease_until = received_at, applied_at = received_at, outcome = 'processed';
alter table webhook_deliveries
  alter column lease_until set not null,
  alter column payload drop default,
  alter column state drop default;
-- The recovery sweep's query: unfinished deliveries by lapsed lease (few rows: applied ones are not indexed).
create index webhook_deliveries_unfinished_idx on webhook_deliveries (lease_until) where state = 'received';

alter table identities add column provider_event_at timestamptz;
`,
};
