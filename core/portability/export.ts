import type { Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { type ArchiveLineSources, writeWorkspaceArchive } from "./archive-writer.ts";
import type { ArchiveKindIoTable } from "./kind-io.ts";
import type { PortabilityStores as Stores } from "./import-plan.ts";
import { ARCHIVE_KIND_IO } from "./kinds/mod.ts";
import type { ArchiveLine } from "./lines.ts";
import { ARCHIVE_KINDS, type ArchiveConsistency } from "./model.ts";
import { assertCanExportWorkspace } from "./policy.ts";
import { toArchiveLine } from "./to-line.ts";

export interface WorkspaceExportOptions {
  serviceVersion: string;
  /** The kinds' IO (default `ARCHIVE_KIND_IO`); a kind missing from it is not exported. */
  io?: ArchiveKindIoTable;
}

export interface WorkspaceExport {
  /** `<slug>-<UTC timestamp>.wks.tar.gz`. */
  filename: string;
  consistency: ArchiveConsistency;
  /** The gzip'd tar, written while it is read (ADR 065). */
  body: ReadableStream<Uint8Array>;
}

/** `2026-11-29T04:20:41.123Z` → `20261129T042041Z`. */
const compactUtc = (iso: string) => `${iso.slice(0, 19).replaceAll("-", "").replaceAll(":", "")}Z`;

/**
 * `GET /workspaces/{slug}/export` (ADR 068): the workspace as an archive, streamed. Where the
 * backend offers a snapshot (PostgreSQL, PGlite), every kind is read in that one read-only
 * transaction, held until the stream ends, fails or is cancelled (`consistency: "snapshot"`);
 * elsewhere each kind is read as of its own moment (`per_kind`). Either way an object written
 * meanwhile is in the archive whole or not at all: each is one stored row or document.
 */
export async function exportWorkspace(
  deps: CoreDeps<Stores>,
  p: Principal,
  ws: Workspace,
  opts: WorkspaceExportOptions,
): Promise<WorkspaceExport> {
  assertCanExportWorkspace(p);
  const io = opts.io ?? ARCHIVE_KIND_IO;
  const exportedAt = deps.clock.now().toISOString();
  const filename = `${ws.slug}-${compactUtc(exportedAt)}.wks.tar.gz`;
  const build = async (stores: Stores, consistency: ArchiveConsistency) =>
    writeWorkspaceArchive({
      serviceVersion: opts.serviceVersion,
      exportedAt,
      consistency,
      workspace: await workspaceLine(stores, ws, io),
      lines: lineSources(stores, ws.id, io),
    });
  const snapshot = deps.stores.snapshot?.bind(deps.stores);
  if (!snapshot) return { filename, consistency: "per_kind", body: await build(deps.stores, "per_kind") };

  // The snapshot's transaction lives as long as its callback: the callback waits for the stream's end.
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  const opened = new Promise<Stores>((resolve, reject) => {
    snapshot(async (stores) => {
      resolve(stores);
      await ended;
    }).catch(reject);
  });
  const stores = await opened;
  try {
    return { filename, consistency: "snapshot", body: whenDone(await build(stores, "snapshot"), release) };
  } catch (e) {
    release();
    throw e;
  }
}

async function workspaceLine(stores: Stores, ws: Workspace, io: ArchiveKindIoTable): Promise<ArchiveLine<"workspace">> {
  const own = io.workspace;
  if (own) {
    for await (const line of own.lines(stores, ws.id)) return line;
  }
  // Read again in the snapshot: the workspace as of the same moment as its content.
  return toArchiveLine.workspace((await stores.workspaces.getById(ws.id)) ?? ws);
}

function lineSources(stores: Stores, workspaceId: string, io: ArchiveKindIoTable): ArchiveLineSources {
  const sources: Record<string, AsyncIterable<unknown>> = {};
  for (const kind of ARCHIVE_KINDS) {
    const kindIo = io[kind];
    if (kind === "workspace" || !kindIo) continue;
    // Lazily: a kind's read starts when the writer reaches it.
    sources[kind] = { [Symbol.asyncIterator]: () => kindIo.lines(stores, workspaceId)[Symbol.asyncIterator]() };
  }
  return sources as ArchiveLineSources;
}

/** `stream` as it is, calling `done` once when it ends, fails or its reader cancels it. */
function whenDone(stream: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let called = false;
  const finish = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          finish();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (e) {
        finish();
        controller.error(e);
      }
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        finish();
      }
    },
  });
}
