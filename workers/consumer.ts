import type { JobConsumer } from "../server/compose.ts";
import { jobRunner } from "./registry.ts";
import { webhookSweep } from "./webhooks.ts";

/**
 * What a consuming process hands `compose` (the server with WORKERS on, and `npm run worker`):
 * every job kind's handler and the webhook inbox's recovery sweep.
 */
export const jobConsumer: JobConsumer = {
  runner: (deps) => jobRunner(deps),
  sweepWebhooks: webhookSweep,
};
