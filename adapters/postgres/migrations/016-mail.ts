/**
 * Mail (docs/decisions/032-mail-blog-version.md): who left which mail list. Global, keyed by the
 * person (identity_id, list), like identities; an unsubscribe link works for every workspace. The
 * number leaves 014 and 015 to work under way on other branches.
 */
export default {
  version: 16,
  name: "mail",
  sql: /* sql */ `
create table mail_unsubscribes (
  identity_id uuid not null references identities (id) on delete cascade,
  list text not null check (list in ('membership', 'shared_notes', 'billing')),
  unsubscribed_at timestamptz not null,
  primary key (identity_id, list)
);
`,
};
