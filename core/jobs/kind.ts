import type { Static, TSchema } from "@sinclair/typebox";
import { validationFailed } from "../kernel/errors.ts";
import { assertValid } from "../kernel/validation.ts";

/**
 * A kind of background job, declared by the module that owns the work (e.g. `repoIndexJob` beside
 * the repo index). core/jobs knows no kind by name: a new module declares its kinds and adds a
 * handler in workers/, touching nothing here.
 */
export interface JobKind<Name extends string = string, Payload extends TSchema = TSchema> {
  /** Stable across releases: a shared queue keeps jobs under it while versions change. */
  readonly name: Name;
  /** The payload's schema, checked when a job is queued and again when a worker reads it back. */
  readonly payload: Payload;
  /** What makes two jobs of this kind in one workspace the same work (equal waiting jobs collapse). */
  dedupKey(payload: Static<Payload>): string;
}

export type JobPayload<K extends JobKind> = Static<K["payload"]>;

/**
 * A job as a queue holds it. The workspace is part of every job, outside the payload, so no kind
 * can forget it: jobs are tenant work like any other (logs, dedup keys, later shard routing).
 */
export interface Job<K extends JobKind = JobKind> {
  kind: K["name"];
  workspace_id: string;
  payload: JobPayload<K>;
  /** Equal keys are the same work: `kind:workspace_id:dedupKey(payload)`. */
  key: string;
}

/** Declares a kind; only infers its types (`jobKind({ name: "x.y", payload, dedupKey })`). */
export function jobKind<Name extends string, Payload extends TSchema>(kind: JobKind<Name, Payload>): JobKind<Name, Payload> {
  return kind;
}

/**
 * The job a queue stores for `enqueue(kind, workspaceId, payload)`: payload checked against the
 * kind's schema (VALIDATION_FAILED otherwise, nothing queued) and its key derived. Every queue
 * adapter builds jobs here, so they all collapse the same jobs.
 */
export function jobOf<K extends JobKind>(kind: K, workspaceId: string, payload: JobPayload<K>): Job<K> {
  if (workspaceId === "") throw validationFailed(`Invalid job ${kind.name}: its workspace id is empty`);
  const checked = assertValid(kind.payload, payload, `payload of job ${kind.name}`);
  return { kind: kind.name, workspace_id: workspaceId, payload: checked, key: `${kind.name}:${workspaceId}:${kind.dedupKey(checked)}` };
}
