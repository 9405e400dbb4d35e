/**
 * Offers and contracts (docs/decisions/034-offers-and-enterprise.md). An offer leaves `open` by
 * one guarded `update … where status = 'open'` (a compare-and-set on the locked row); a reissue
 * does that and inserts the new offer in one transaction. `expired` is never written: an open
 * offer past `expires_at` reads as expired. One contract per workspace. The operator reads offers
 * by id alone (offers_id) and lists workspaces newest first (workspaces_created).
 */
export default {
  version: 18,
  name: "billing-offers",
  sql: /* sql */ `
create table billing_offers (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  plan text not null check (plan in ('team', 'business', 'enterprise')),
  limits jsonb,
  price jsonb not null,
  term_months integer not null check (term_months between 1 and 60),
  radar_credits bigint check (radar_credits > 0),
  expires_at timestamptz not null,
  note text,
  status text not null check (status in ('open', 'accepted', 'cancelled', 'superseded')),
  revision integer not null check (revision >= 1),
  supersedes uuid,
  superseded_by uuid,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  accepted_at timestamptz,
  cancelled_at timestamptz,
  superseded_at timestamptz,
  primary key (workspace_id, id)
);
create unique index billing_offers_id on billing_offers (id);
create index billing_offers_created on billing_offers (workspace_id, created_at desc, id desc);
create index billing_offers_all_created on billing_offers (created_at desc, id desc);

create table billing_contracts (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  plan text not null check (plan in ('team', 'business', 'enterprise')),
  limits jsonb,
  price jsonb not null,
  term_months integer not null check (term_months between 1 and 60),
  note text,
  started_at timestamptz not null,
  term_ends_at timestamptz not null,
  source text not null check (source in ('operator', 'offer')),
  offer_id uuid,
  updated_at timestamptz not null,
  primary key (workspace_id)
);

create index workspaces_created on workspaces (created_at desc, id desc);
`,
};
