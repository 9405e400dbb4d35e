import type { ContactUnlock } from "../../contacts/mod.ts";
import { CONTACT_TRANSFER_KINDS as C } from "../../contacts/transfer.ts";
import type { TransferDoc } from "../../kernel/store-transfer.ts";
import { CRITERION_TAG, type RadarMonitor, type RadarRun, type RadarSearch, type RunResult } from "../../radar/mod.ts";
import { RADAR_TRANSFER_KINDS as R, type RunStepDoc } from "../../radar/transfer.ts";
import type { Stores } from "../../stores.ts";
import { type Topic, TOPIC_STATUSES } from "../../topics/mod.ts";
import type { ArchiveDoc, ArchiveKindIoTable } from "../kind-io.ts";
import type { ArchiveLine } from "../lines.ts";
import { toArchiveLine } from "../to-line.ts";

/**
 * Radar's and contacts' archive kinds (ADR 065, 072): lines from the workspace's transfer reads
 * (key order), criteria from their topics; a line's documents as the transfer kinds take them.
 */

/** A kind's documents of one workspace, in key order. */
async function* docsOf(stores: Stores, name: string, workspaceId: string): AsyncIterable<TransferDoc> {
  const kind = stores.transfer.kinds.find((k) => k.name === name);
  if (!kind) throw new Error(`The store declares no transfer kind ${name}`);
  yield* kind.read({ workspaceId });
}

const TOPIC_PAGE = 100;

/**
 * The workspace's topics that may hold a criterion: its `topics.topics` documents where the store
 * declares that kind, else (until topics does) those tagged as criteria, every status, by id.
 */
async function* criterionTopics(stores: Stores, workspaceId: string): AsyncIterable<Topic> {
  if (stores.transfer.kinds.some((k) => k.name === "topics.topics")) {
    for await (const d of docsOf(stores, "topics.topics", workspaceId)) yield d as unknown as Topic;
    return;
  }
  const found: Topic[] = [];
  for (const status of TOPIC_STATUSES) {
    for (let offset = 0;; offset += TOPIC_PAGE) {
      const page = await stores.topics.list(workspaceId, { status, tags: [CRITERION_TAG] }, { limit: TOPIC_PAGE, offset });
      found.push(...page.items);
      if (page.items.length < TOPIC_PAGE) break;
    }
  }
  yield* found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The error of a run that was neither finished nor given up when its workspace was exported. */
export const RUN_NOT_FINISHED_AT_EXPORT = {
  code: "NOT_FINISHED_AT_EXPORT",
  message: "The run was still under way when its workspace was exported: here it is history, and no worker resumes it.",
} as const;

/**
 * A run as an archive keeps it (ADR 072): history. One queued or running at export (a worker's,
 * holding credits on the source's ledger) is written `failed` with `RUN_NOT_FINISHED_AT_EXPORT`,
 * finished when it last changed, nothing held (`released` = held − charged): on the target no
 * worker resumes it (only queued and running runs are taken over) and no hold waits to be
 * resolved. The same on import, so a hand-made line of a running run is history too; a run
 * already finished, or not started (draft, priced: it holds nothing), is kept as it is.
 */
export function runAsHistory(line: ArchiveLine<"radar_runs">): ArchiveLine<"radar_runs"> {
  if (line.state !== "queued" && line.state !== "running") return line;
  return {
    ...line,
    state: "failed",
    error: line.error ?? { ...RUN_NOT_FINISHED_AT_EXPORT },
    released_credits: Math.max(0, line.hold_credits - line.charged_credits),
    finished_at: line.finished_at ?? line.updated_at,
  };
}

/**
 * The claim token of every imported unlock: the nil UUID, which no request and no ledger hold
 * ever has (ids are v7), so nothing finishes, expires or captures through it (ADR 072). An archive
 * carries no token (ADR 065).
 */
export const IMPORTED_UNLOCK_TOKEN = "00000000-0000-0000-0000-000000000000";

const doc = (kind: string, d: object): ArchiveDoc => ({ kind, doc: d as TransferDoc });

/** The archive kinds of this group's modules (ADR 067). */
export const radarKindIo: ArchiveKindIoTable = {
  radar_criteria: {
    async *lines(stores, workspaceId) {
      for await (const t of criterionTopics(stores, workspaceId)) {
        const line = toArchiveLine.radar_criteria(t);
        if (line) yield line;
      }
    },
    // Checked against the topic it names, never written: the topic holds the block (ADR 065).
    toDocs: () => [],
  },
  radar_searches: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, R.searches.name, workspaceId)) yield toArchiveLine.radar_searches(d as unknown as RadarSearch);
    },
    toDocs: (line, ctx) => [doc(R.searches.name, { ...line, workspace_id: ctx.workspaceId } satisfies RadarSearch)],
  },
  radar_runs: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, R.runs.name, workspaceId)) {
        yield runAsHistory(toArchiveLine.radar_runs(d as unknown as RadarRun));
      }
    },
    toDocs: (line, ctx) => {
      const run: RadarRun = { ...runAsHistory(line), workspace_id: ctx.workspaceId, cursor: null, lease_until: null, attempt: 0 };
      return [doc(R.runs.name, run)];
    },
  },
  radar_run_trace: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, R.runSteps.name, workspaceId)) {
        const step = d as unknown as RunStepDoc;
        yield toArchiveLine.radar_run_trace(step.run_id, step);
      }
    },
    toDocs: (line, ctx) => {
      const step: RunStepDoc = {
        workspace_id: ctx.workspaceId,
        run_id: line.run_id,
        seq: line.seq,
        type: line.type,
        at: line.at,
        data: line.data,
      };
      return [doc(R.runSteps.name, step)];
    },
  },
  radar_run_results: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, R.runResults.name, workspaceId)) {
        yield toArchiveLine.radar_run_results(d as unknown as RunResult);
      }
    },
    toDocs: (line, ctx) => [doc(R.runResults.name, { ...line, workspace_id: ctx.workspaceId } satisfies RunResult)],
  },
  radar_monitors: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, R.monitors.name, workspaceId)) yield toArchiveLine.radar_monitors(d as unknown as RadarMonitor);
    },
    toDocs: (line, ctx) => [doc(R.monitors.name, { ...line, workspace_id: ctx.workspaceId } satisfies RadarMonitor)],
  },
  contact_unlocks: {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf(stores, C.unlocks.name, workspaceId)) {
        // Settled ones only: a pending claim was not paid for yet, and no claim token leaves.
        const line = toArchiveLine.contact_unlocks(d as unknown as ContactUnlock);
        if (line) yield line;
      }
    },
    toDocs: (
      line,
      ctx,
    ) => [doc(C.unlocks.name, { ...line, workspace_id: ctx.workspaceId, token: IMPORTED_UNLOCK_TOKEN } satisfies ContactUnlock)],
  },
};
