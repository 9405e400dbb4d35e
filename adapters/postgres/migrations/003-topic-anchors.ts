/**
 * Anchors: the glob patterns of files of the linked repo a topic is about (ADR 010), and the
 * literal directory each starts from (core's `anchorBase`), indexed.
 */
export default {
  version: 3,
  name: "topic-anchors",
  sql: /* sql */ `
alter table topics add column anchors text[] not null default '{}';
-- anchorBases(anchors), written by the store: match-files and drift look topics up by the
-- ancestors of a file path, not by scanning every pattern.
alter table topics add column anchor_bases text[] not null default '{}';
create index topics_anchor_bases_idx on topics using gin (workspace_id, anchor_bases);
`,
};
