import type { Collection } from "mongodb";
import type { RadarMonitor, RadarRun } from "../../../core/radar/model.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { MonitorDoc, RunDoc, VersionDoc } from "./documents.ts";

type Versioned = (RadarRun | RadarMonitor) & { id: string; workspace_id: string; version: number };

/**
 * Compare-and-set of a run or monitor at `next.version - 1`: the version insert is the lock.
 * A writer that finds the version taken first rolls the document forward to it (a writer cut
 * short between its two steps), then answers "version_conflict" so its caller re-reads.
 * Version keys are never freed: a writer that read version v long ago and inserts `<id>:v+1`
 * only now must collide, or it would answer "ok" for a write that never lands. Only the
 * snapshot is dropped once the document has moved past it.
 */
export async function replaceVersioned<D extends RunDoc | MonitorDoc>(
  versions: Collection<VersionDoc>,
  docs: Collection<D>,
  next: Versioned,
): Promise<"ok" | "version_conflict" | "not_found"> {
  const filter = { _id: next.id, workspace_id: next.workspace_id } as never;
  const cur = await docs.findOne(filter) as Versioned | null;
  if (!cur) return "not_found";
  if (cur.version !== next.version - 1) return "version_conflict";
  const key = `${next.id}:${next.version}`;
  try {
    await versions.insertOne({
      _id: key,
      workspace_id: next.workspace_id,
      of: next.id,
      version: next.version,
      snapshot: next,
    });
  } catch (e) {
    if (!isDuplicateKey(e)) throw e;
    const won = await versions.findOne({ _id: key });
    if (won?.snapshot) {
      await docs.replaceOne(
        { _id: next.id, workspace_id: next.workspace_id, version: { $lt: won.version } } as never,
        { _id: next.id, ...won.snapshot } as never,
      );
    }
    return "version_conflict";
  }
  await docs.replaceOne(
    { _id: next.id, workspace_id: next.workspace_id, version: { $lt: next.version } } as never,
    { _id: next.id, ...next } as never,
  );
  // The document is past the version before: its snapshot is needed no more (its key stays).
  await versions.updateOne({ _id: `${next.id}:${next.version - 1}` }, { $unset: { snapshot: "" } });
  return "ok";
}
