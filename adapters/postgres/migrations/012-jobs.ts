/**
 * The journal of the in-process job queue (docs/decisions/024-job-queues.md): the jobs queued and
 * not yet run, so the embedded server resumes them after a restart. Shared deployments use
 * BullMQ instead, which keeps its own tables (schema `bullmq`).
 */
export default {
  version: 12,
  name: "jobs",
  sql: /* sql */ `
create table job_journal (
  id uuid primary key,
  run_at timestamptz not null,
  job jsonb not null
);
create index job_journal_run_at_idx on job_journal (run_at, id);
`,
};
