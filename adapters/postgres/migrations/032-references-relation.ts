/**
 * The `references` relation type: a topic links to the target (what a Markdown import makes of a
 * link between two files, docs/decisions/064-markdown-import.md). Directional, unlike `relates_to`.
 */
export default {
  version: 32,
  name: "references-relation",
  sql: /* sql */ `
alter table topic_relations drop constraint topic_relations_type_check;
alter table topic_relations add constraint topic_relations_type_check
  check (type in ('depends_on', 'part_of', 'supersedes', 'contradicts', 'relates_to', 'references'));
`,
};
