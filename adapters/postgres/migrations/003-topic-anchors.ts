/**
 * Anchors: the glob patterns of files of the linked repo a topic is about (issue #5). Stored with
 * the topic, written and read like its other fields.
 */
export default {
  version: 3,
  name: "topic-anchors",
  sql: /* sql */ `
alter table topics add column anchors text[] not null default '{}';
`,
};
