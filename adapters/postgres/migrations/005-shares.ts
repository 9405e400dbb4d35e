/**
 * Sharing (docs/decisions/008-sharing.md): public read-only links and members' inboxes.
 *
 * `share_links` holds a topic's one active link: the primary key is the topic, so issuing a new
 * link replaces the row (`on conflict do update`) and revoking deletes it. Only the SHA-256 of the
 * token is stored. `share_links.token_hash` is the third index that cannot start with
 * `workspace_id` (after `api_keys.key_hash` and `members(identity_id)`): a public request starts
 * from the token alone. Both tables go with their topic (foreign key, cascade), and with their
 * workspace; an inbox entry goes with its recipient's membership too.
 */
export default {
  version: 5,
  name: "shares",
  sql: /* sql */ `
create table share_links (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  topic_id uuid not null,
  id uuid not null,
  token_hash text not null,
  created_by uuid,
  created_at timestamptz not null,
  primary key (workspace_id, topic_id),
  foreign key (workspace_id, topic_id) references topics (workspace_id, id) on delete cascade
);
-- Exception to the tenancy rule: the public page finds its link from the token alone. A SHA-256
-- of 256 random bits cannot collide between tenants in practice; the unique index makes it sure.
create unique index share_links_token_hash_key on share_links (token_hash);

create table note_shares (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  topic_id uuid not null,
  recipient_member_id uuid not null,
  sender_id uuid,
  message text,
  created_at timestamptz not null,
  read_at timestamptz,
  primary key (workspace_id, id),
  foreign key (workspace_id, topic_id) references topics (workspace_id, id) on delete cascade,
  foreign key (workspace_id, recipient_member_id) references members (workspace_id, id) on delete cascade
);
-- A member's inbox, newest first (all of it, or unread only), and its read-all.
create index note_shares_inbox_idx on note_shares (workspace_id, recipient_member_id, created_at desc, id desc);
create index note_shares_unread_idx on note_shares (workspace_id, recipient_member_id, created_at desc, id desc)
  where read_at is null;
-- The cascade of a topic's deletion.
create index note_shares_topic_idx on note_shares (workspace_id, topic_id);
`,
};
