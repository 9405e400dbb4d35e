/**
 * Billing accounts (docs/decisions/033-billing-provider-and-webhook.md): a workspace's customer and
 * subscription at the billing provider, the subscription's status and period, the plan billing
 * set, and the `created` of the last provider event applied (staleness). One row per workspace;
 * every write is a compare-and-set on `version`. `customer_id` is looked up by the webhook's
 * invoice events (which name the customer only): an index that does not start with
 * `workspace_id`, like `api_keys.key_hash`.
 */
export default {
  version: 17,
  name: "billing-accounts",
  sql: /* sql */ `
create table billing_accounts (
  workspace_id uuid primary key references workspaces (id) on delete cascade,
  customer_id text,
  subscription_id text,
  status text not null check (status in ('none', 'active', 'trialing', 'past_due', 'canceled')),
  plan text check (plan in ('free', 'team', 'business', 'enterprise')),
  current_period_start timestamptz,
  current_period_end timestamptz,
  last_event_created bigint,
  updated_at timestamptz not null,
  version integer not null check (version > 0)
);
create index billing_accounts_customer on billing_accounts (customer_id) where customer_id is not null;
`,
};
