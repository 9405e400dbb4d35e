import type { WorkspaceCollections } from "./collections.ts";
import type { Identity, Member, Workspace } from "../../../core/workspaces/model.ts";
import type { IdentityStore } from "../../../core/workspaces/ports.ts";
import { type IdentityDoc, toIdentity, toMember, toWorkspace } from "./documents.ts";
import { isComplete, latestRoster, latestRosters } from "./roster.ts";
import { isDuplicateKey } from "../duplicate-key.ts";

/**
 * Whether an identity document is visible. One inserted by a bootstrap carries `pending_ws` until
 * that bootstrap settles: it stays hidden while that workspace is not committed, so a bootstrap
 * is all or nothing to readers. Once the workspace is committed (or gone: a purge deletes the
 * pending identity before the workspace, so a gone workspace was committed and later deleted) the
 * identity is a person like any other. Costs two more lookups only for such rare leftovers.
 */
export async function isVisible(c: WorkspaceCollections, d: IdentityDoc): Promise<boolean> {
  if (d.pending_ws === undefined) return true;
  const [ws, roster] = await Promise.all([
    c.workspaces.findOne({ _id: d.pending_ws }, { projection: { pending_since: 1 } }),
    latestRoster(c, d.pending_ws),
  ]);
  return !ws || isComplete(ws, roster);
}

export class MongoIdentityStore implements IdentityStore {
  constructor(private readonly c: WorkspaceCollections) {}

  private async visible(d: IdentityDoc | null): Promise<Identity | null> {
    return d && (await isVisible(this.c, d)) ? toIdentity(d) : null;
  }

  async getById(identityId: string): Promise<Identity | null> {
    return this.visible(await this.c.identities.findOne({ _id: identityId }));
  }

  async getByEmail(email: string): Promise<Identity | null> {
    return this.visible(await this.c.identities.findOne({ email }));
  }

  async update(
    identityId: string,
    changes: { email?: string; name?: string | null },
    opts: { eventAt?: string } = {},
  ): Promise<Identity | "email_taken" | "stale" | null> {
    const current = await this.getById(identityId);
    if (!current) return null;
    const $set: Record<string, unknown> = {};
    if (changes.email !== undefined) $set.email = changes.email;
    if (changes.name !== undefined) $set.name = changes.name;
    const filter: Record<string, unknown> = { _id: identityId };
    if (opts.eventAt !== undefined) {
      // Compare-and-set on the event time (ISO strings order as the instants they name). FerretDB
      // v1 runs it as a read then a write (ADR 005), so two events of one person racing each other
      // may land in either order there; an older event arriving after a newer one is always stale.
      $set.provider_event_at = opts.eventAt;
      filter.$or = [{ provider_event_at: { $exists: false } }, { provider_event_at: null }, { provider_event_at: { $lte: opts.eventAt } }];
    }
    if (Object.keys($set).length === 0) return current;
    try {
      // One document, one `$set`: the unique e-mail index refuses a taken address atomically.
      const r = await this.c.identities.updateOne(filter, { $set });
      if (r.matchedCount === 0) return (await this.getById(identityId)) ? "stale" : null;
    } catch (e) {
      if (isDuplicateKey(e)) return "email_taken";
      throw e;
    }
    return this.getById(identityId);
  }

  async memberships(identityId: string, limit: number): Promise<Array<{ workspace: Workspace; member: Member }>> {
    const n = Math.trunc(limit);
    if (n <= 0) return [];
    // Two round trips whatever the count: the page of memberships; then its workspaces by _id
    // and their rosters (one or two versions each at rest), at once.
    const members = await this.c.members.find({ identity_id: identityId }).sort({ created_at: 1, _id: 1 }).limit(n).toArray();
    if (members.length === 0) return [];
    const ids = [...new Set(members.map((m) => m.workspace_id))];
    const [workspaces, rosters] = await Promise.all([
      this.c.workspaces.find({ _id: { $in: ids } }).toArray(),
      latestRosters(this.c, ids),
    ]);
    const byId = new Map(workspaces.map((w) => [w._id, w]));
    const out: Array<{ workspace: Workspace; member: Member }> = [];
    for (const m of members) {
      // Not a membership: of a pending workspace, of one whose deletion a crash interrupted, or one being removed.
      const w = byId.get(m.workspace_id);
      const roster = rosters.get(m.workspace_id);
      if (!w || !isComplete(w, roster) || roster?.removing.includes(m._id)) continue;
      out.push({ workspace: toWorkspace(w), member: toMember(m, roster?.owner_ids) });
    }
    return out;
  }
}
