/**
 * Support (docs/decisions/035-support-webhook.md): each workspace's support-desk conversations as
 * Intercom's notifications left them, and the notifications recorded, each once per workspace, in
 * the same statement as its effect. The number leaves 017 and 018 to work under way on other branches.
 */
export default {
  version: 19,
  name: "support",
  sql: /* sql */ `
create table support_conversations (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id text not null,
  state text not null check (state in ('open', 'closed', 'snoozed')),
  title text,
  last_topic text not null,
  events integer not null check (events >= 1),
  updated_at timestamptz not null,
  primary key (workspace_id, id)
);
create index support_conversations_newest on support_conversations (workspace_id, updated_at desc, id collate "C" desc);

create table support_notifications (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  notification_id text not null,
  conversation_id text not null,
  received_at timestamptz not null,
  primary key (workspace_id, notification_id)
);
`,
};
