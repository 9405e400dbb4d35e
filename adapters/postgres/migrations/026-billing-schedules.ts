/**
 * Included credits at each later period start, and an accepted offer's pending effects
 * (docs/decisions/043-billing-schedules-and-offer-effects.md).
 * - `billing_contracts.next_grant_at`: the start of the contract's next period, whose included
 *   credits are then due. Written with the contract (one statement), moved by a guarded update
 *   (`where started_at = … and next_grant_at = …`). The sweep's read is served by
 *   `billing_contracts_next_grant` (across workspaces: the operator's schedule, like offers_id).
 * - `billing_offers.effects_pending`: set by the acceptance's own guarded update, cleared once
 *   contract, plan and credits are applied; the recovery's read is served by a partial index on
 *   the few pending ones.
 */
export default {
  version: 26,
  name: "billing-schedules",
  sql: /* sql */ `
alter table billing_contracts add column next_grant_at timestamptz;
create index billing_contracts_next_grant on billing_contracts (next_grant_at) where next_grant_at is not null;

alter table billing_offers add column effects_pending boolean not null default false;
create index billing_offers_effects_pending on billing_offers (accepted_at) where effects_pending;
`,
};
