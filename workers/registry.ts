import { Value } from "@sinclair/typebox/value";
import type { ComposedDeps } from "../core/deps.ts";
import type { RunJob } from "../core/jobs/ports.ts";
import type { JobHandler } from "./handler.ts";
import { radarMonitorHandler, radarRunHandler } from "./radar.ts";
import { repoIndexHandler } from "./repo-index.ts";
import { mailSendHandler } from "./mail.ts";
import { includedCreditsHandler, offerEffectsHandler } from "./billing.ts";

/** Every job kind's handler. A new kind adds its handler file and one line here. */
export const HANDLERS: readonly JobHandler[] = [
  repoIndexHandler,
  radarRunHandler,
  radarMonitorHandler,
  mailSendHandler,
  includedCreditsHandler,
  offerEffectsHandler,
];

/**
 * What a consumer (the server's own, or `npm run worker`) hands its queue: finds the job's
 * handler by kind and runs it. A job of no known kind, or whose payload no longer fits its kind
 * (written by another version to a shared queue), fails and is logged by the queue.
 */
export function jobRunner(deps: () => ComposedDeps, handlers: readonly JobHandler[] = HANDLERS): RunJob {
  const byKind = new Map<string, JobHandler>();
  for (const h of handlers) {
    if (byKind.has(h.kind.name)) throw new Error(`Two handlers for job kind ${h.kind.name}`);
    byKind.set(h.kind.name, h);
  }
  return async (job) => {
    const handler = byKind.get(job.kind);
    if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
    if (!Value.Check(handler.kind.payload, job.payload)) throw new Error(`Job ${job.key}: its payload does not fit kind ${job.kind}`);
    await handler.run(deps(), job);
  };
}
