/**
 * The roster of a workspace (its owners, its members being removed) as an insert-only sequence
 * of versions, and the one compare-and-set every owner-related decision goes through.
 *
 * Why not a conditional update of the workspace document (`{ _id, v }` + `$pull`)? On MongoDB
 * that is atomic, but on FerretDB v1 an update is a query followed by a replacement of the whole
 * document, outside any transaction (FerretDB/FerretDB#3040): two concurrent conditional updates
 * can both match and both write. The writes that are atomic on both servers are an insert into a
 * unique index and a delete by `_id`. So a roster change commits by inserting version v+1 of the
 * roster of a workspace: of concurrent writers that read version v, the unique index
 * (workspace_id, v) lets exactly one insert v+1; the others re-read and decide again.
 *
 * Old versions are deleted once a newer one is committed, so a workspace has one version at rest
 * (two or three for a moment). A writer that read a version long ago could then insert a version
 * number that was deleted; such an insert is not the newest, so the writer checks for a newer
 * version after inserting and, finding one, takes its insert back and retries. Every roster
 * change here is a function of the version it read (set an owner set, mark a removal), so
 * retrying after a take-back is safe even when the take-back was needless.
 *
 * The first version is the commit point of a bootstrap: a workspace exists once it has a roster
 * version that is not `purged` (see workspace-store.ts).
 */
import type { WorkspaceCollections } from "./collections.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { isoAt } from "../options.ts";
import { type RosterDoc, type WorkspaceDoc } from "./documents.ts";

export interface RosterState {
  owner_ids: string[];
  removing: string[];
  purged?: true;
}

/** The newest roster version of a workspace; null before its bootstrap commits. */
export function latestRoster(c: WorkspaceCollections, workspaceId: string): Promise<RosterDoc | null> {
  return c.rosters.find({ workspace_id: workspaceId }).sort({ v: -1 }).limit(1).next();
}

/** The newest roster version of each workspace, in one query (a workspace has one or two at rest). */
export async function latestRosters(c: WorkspaceCollections, workspaceIds: string[]): Promise<Map<string, RosterDoc>> {
  const out = new Map<string, RosterDoc>();
  if (workspaceIds.length === 0) return out;
  for (const d of await c.rosters.find({ workspace_id: { $in: workspaceIds } }).toArray()) {
    const seen = out.get(d.workspace_id);
    if (!seen || d.v > seen.v) out.set(d.workspace_id, d);
  }
  return out;
}

/**
 * Commits `next` as the version after `after` (0: the first version). True when it is committed
 * and is the newest version; false when another writer got there first (re-read and decide
 * again). One insert, one indexed check, one clean-up delete.
 */
export async function commitRoster(
  c: WorkspaceCollections,
  workspaceId: string,
  after: number,
  next: RosterState,
  nowMs: number,
): Promise<boolean> {
  const v = after + 1;
  const _id = `${workspaceId}:${v}`;
  try {
    await c.rosters.insertOne({
      _id,
      workspace_id: workspaceId,
      v,
      owner_ids: next.owner_ids,
      removing: next.removing,
      ...(next.purged ? { purged: true as const } : {}),
      at: isoAt(nowMs),
    });
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
  const newer = await c.rosters.findOne({ workspace_id: workspaceId, v: { $gt: v } }, { projection: { _id: 1 } });
  if (newer) {
    // A version number freed by the clean-up below, inserted again by a writer that read it
    // long ago: not the newest, so not a commit. (Or someone already built on this version:
    // taking it back is then harmless, the newer version carries it.)
    await c.rosters.deleteOne({ _id });
    return false;
  }
  await c.rosters.deleteMany({ workspace_id: workspaceId, v: { $lt: v } });
  return true;
}

/**
 * Whether a workspace document is a complete workspace: no pending marker (the common case, no
 * lookup), or a marker left by a bootstrap that committed (a roster version exists, not purged)
 * but did not get to unset it.
 */
export function isComplete(ws: Pick<WorkspaceDoc, "pending_since">, roster: RosterDoc | null | undefined): boolean {
  return ws.pending_since === undefined || (!!roster && !roster.purged);
}
