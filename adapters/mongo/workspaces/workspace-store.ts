/**
 * Workspaces without multi-document transactions.
 *
 * `bootstrap` is all or nothing. It inserts the workspace marked `pending_since` (the slug's
 * unique index decides "slug_taken"), the owner identity if new, marked `pending_ws` (the
 * e-mail's unique index decides "email_taken", and the pending workspace is purged), the member
 * and the key, and commits by inserting the workspace's first roster version (roster.ts). Readers
 * ignore a workspace marked pending that has no roster version, and the identity such a
 * bootstrap inserted, so nothing of a bootstrap is visible before that one insert. Then it unsets
 * the markers (a tidy-up: readers already accept a marked workspace that has a roster).
 *
 * A crash before the commit leaves a pending workspace and maybe its identity, member and key:
 * debris no reader sees, holding a slug and an e-mail. A pending workspace older than
 * `abandonedAfterMs` (2 minutes) without a roster is such debris: the next bootstrap that runs
 * into its slug or e-mail purges it and takes the slug. The purge is decided by inserting a
 * `purged` first roster version: a stalled bootstrap and its purger race for that one insert, so
 * exactly one of "committed" and "purged" wins. A bootstrap that meets a *fresh* pending
 * bootstrap of the same slug or e-mail waits up to `settleWaitMs` for it to commit or give up, as
 * PostgreSQL's `on conflict` waits for the other transaction.
 *
 * `delete` removes the workspace document first (readers stop seeing the workspace at once), then
 * runs every module's bundle purge (each deletes its documents by `workspace_id`, mod.ts lists the
 * bundles), then the roster. Re-running it after a crash completes it.
 */
import type { WorkspaceCollections } from "./collections.ts";
import { type AccessCollections, apiKeyDoc } from "../access/mod.ts";
import type { Workspace } from "../../../core/workspaces/model.ts";
import type { WorkspaceCounts } from "../../../core/workspaces/dto.ts";
import type { BootstrapBundle, Listed, WorkspaceFilter, WorkspaceStore } from "../../../core/workspaces/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { identityDoc, memberDoc, toWorkspace, type WorkspaceDoc } from "./documents.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { isoAt, type MongoStoreOptions } from "../options.ts";
import { sleep } from "../retry.ts";
import { commitRoster, isComplete, latestRoster } from "./roster.ts";

type BootstrapResult = "ok" | "slug_taken" | "email_taken";

/** Rounds of "the holder vanished or was purged, try the insert again" before giving up. */
const MAX_ROUNDS = 50;

export class MongoWorkspaceStore implements WorkspaceStore {
  constructor(
    private readonly c: WorkspaceCollections & AccessCollections,
    private readonly o: MongoStoreOptions,
    /** Every bundle's purge of a workspace's documents (mod.ts), this module's members, areas and repos included. */
    private readonly purgeTenant: (workspaceId: string) => Promise<void>,
  ) {}

  // ---- bootstrap ----

  async bootstrap(b: BootstrapBundle): Promise<BootstrapResult> {
    const wsId = b.workspace.id;
    const slug = await this.claimSlug(b);
    if (slug !== "ok") return slug;
    try {
      if (b.owner.isNew && (await this.insertOwner(b)) === "email_taken") {
        await this.purge(wsId, b);
        return "email_taken";
      }
      await this.c.members.insertOne(memberDoc(b.member));
      await this.c.apiKeys.insertOne(apiKeyDoc(b.apiKey));
      if (!(await this.commit(b))) {
        throw new Error("Cannot create workspace: its creation stalled and was purged as abandoned; try again");
      }
    } catch (e) {
      // The commit may have landed although its answer was lost: then it is done.
      if (await this.isCommitted(wsId).catch(() => false)) return this.settle(b);
      await this.purge(wsId, b).catch(() => {});
      throw e;
    }
    return this.settle(b);
  }

  /** The commit point: the first roster version, naming the bootstrap's member as owner. */
  private async commit(b: BootstrapBundle): Promise<boolean> {
    const wsId = b.workspace.id;
    const first = { owner_ids: [b.member.id], removing: [] };
    if (!(await commitRoster(this.c, wsId, 0, first, this.o.now())) && !(await this.isCommitted(wsId))) return false;
    // A purge that ran to its end while this bootstrap stalled leaves no roster behind to lose
    // the race to: the workspace document is gone then, and so is this bootstrap.
    if (await this.c.workspaces.findOne({ _id: wsId }, { projection: { _id: 1 } })) return true;
    await this.c.rosters.deleteMany({ workspace_id: wsId });
    return false;
  }

  private async isCommitted(wsId: string): Promise<boolean> {
    const [ws, roster] = await Promise.all([
      this.c.workspaces.findOne({ _id: wsId }, { projection: { pending_since: 1 } }),
      latestRoster(this.c, wsId),
    ]);
    return !!ws && !!roster && !roster.purged;
  }

  /** Unsets the pending markers; readers accept the workspace without this, it only spares them a lookup. */
  private async settle(b: BootstrapBundle): Promise<"ok"> {
    await this.unmark(b.workspace.id).catch(() => {});
    if (b.owner.isNew) {
      await this.c.identities
        .updateOne({ _id: b.owner.identity.id, pending_ws: b.workspace.id }, { $unset: { pending_ws: "" } })
        .catch(() => {});
    }
    return "ok";
  }

  private async unmark(wsId: string): Promise<void> {
    await this.c.workspaces.updateOne(
      { _id: wsId, pending_since: { $exists: true } },
      { $unset: { pending_since: "", pending_identity: "" } },
    );
  }

  /** Inserts the pending workspace; the slug's unique index decides. */
  private async claimSlug(b: BootstrapBundle): Promise<"ok" | "slug_taken"> {
    const doc: WorkspaceDoc = {
      _id: b.workspace.id,
      slug: b.workspace.slug,
      name: b.workspace.name,
      plan: b.workspace.plan,
      settings: { ...b.workspace.settings },
      created_at: b.workspace.created_at,
      updated_at: b.workspace.updated_at,
      pending_since: isoAt(this.o.now()),
      ...(b.owner.isNew ? { pending_identity: b.owner.identity.id } : {}),
    };
    const deadline = this.o.now() + this.o.settleWaitMs;
    for (let round = 0; round < MAX_ROUNDS;) {
      try {
        await this.c.workspaces.insertOne(doc);
        return "ok";
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const holder = await this.c.workspaces.findOne({ slug: b.workspace.slug }, { projection: { pending_since: 1 } });
      if (!holder) {
        round++; // gone meanwhile: try again
        continue;
      }
      if (holder.pending_since === undefined) return "slug_taken";
      const roster = await latestRoster(this.c, holder._id);
      if (roster && !roster.purged) {
        await this.unmark(holder._id);
        return "slug_taken";
      }
      if (roster?.purged || this.abandoned(holder.pending_since)) {
        await this.purge(holder._id, null);
        round++;
        continue;
      }
      // A concurrent bootstrap of this slug is in flight: wait for it to commit or give up.
      if (this.o.now() > deadline) return "slug_taken";
      await sleep(5 + Math.random() * 10);
    }
    throw new Error(`Cannot create workspace: the slug ${b.workspace.slug} kept changing hands`);
  }

  /** Inserts the new owner identity, marked as this bootstrap's; the e-mail's unique index decides. */
  private async insertOwner(b: BootstrapBundle): Promise<"ok" | "email_taken"> {
    const doc = { ...identityDoc(b.owner.identity), pending_ws: b.workspace.id };
    const deadline = this.o.now() + this.o.settleWaitMs;
    for (let round = 0; round < MAX_ROUNDS;) {
      try {
        await this.c.identities.insertOne(doc);
        return "ok";
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      const holder = await this.c.identities.findOne({ email: doc.email });
      if (!holder) {
        round++;
        continue;
      }
      const other = holder.pending_ws;
      if (other === undefined || other === b.workspace.id) return "email_taken";
      const [ws, roster] = await Promise.all([
        this.c.workspaces.findOne({ _id: other }, { projection: { pending_since: 1 } }),
        latestRoster(this.c, other),
      ]);
      if (!ws || isComplete(ws, roster)) {
        // Its bootstrap committed (the workspace may be deleted since: a purge removes the
        // identity before the workspace): a person like any other.
        await this.c.identities.updateOne({ _id: holder._id, pending_ws: other }, { $unset: { pending_ws: "" } });
        return "email_taken";
      }
      if (roster?.purged || this.abandoned(ws.pending_since!)) {
        await this.purge(other, null);
        round++;
        continue;
      }
      if (this.o.now() > deadline) return "email_taken";
      await sleep(5 + Math.random() * 10);
    }
    throw new Error("Cannot create workspace: the owner's e-mail kept changing hands");
  }

  /**
   * Removes a pending workspace and everything its bootstrap wrote. Decided by inserting the
   * `purged` first roster version (nothing happens if the bootstrap committed first), then
   * carried out: the children, the identity the bootstrap inserted (unless a member add claimed
   * it), the workspace document, and last the roster, so an interrupted purge is found and
   * finished by the next one. `own`: the caller is the bootstrap that wrote it, which knows what
   * it wrote even when the workspace document is already gone (purged while it stalled).
   */
  private async purge(wsId: string, own: BootstrapBundle | null): Promise<void> {
    const ws = await this.c.workspaces.findOne({ _id: wsId }, { projection: { pending_since: 1, pending_identity: 1 } });
    if (ws ? ws.pending_since === undefined : !own) return;
    const decided = await commitRoster(this.c, wsId, 0, { owner_ids: [], removing: [], purged: true }, this.o.now());
    if (!decided) {
      const roster = await latestRoster(this.c, wsId);
      if (roster && !roster.purged) {
        if (ws) await this.unmark(wsId); // its bootstrap committed
        return;
      }
      if (!roster) return; // another purge finished meanwhile
      // else: a purge is recorded (another purger's, maybe crashed): carry it out, again.
    }
    await this.purgeTenant(wsId);
    const identityId = ws?.pending_identity ?? (own?.owner.isNew ? own.owner.identity.id : undefined);
    if (identityId !== undefined) await this.c.identities.deleteOne({ _id: identityId, pending_ws: wsId });
    await this.c.workspaces.deleteOne({ _id: wsId, pending_since: { $exists: true } });
    await this.c.rosters.deleteMany({ workspace_id: wsId });
  }

  private abandoned(pendingSince: string): boolean {
    return pendingSince < isoAt(this.o.now() - this.o.abandonedAfterMs);
  }

  // ---- the rest ----

  async getBySlug(slug: string): Promise<Workspace | null> {
    return this.committed(await this.c.workspaces.findOne({ slug }));
  }

  async getById(workspaceId: string): Promise<Workspace | null> {
    return this.committed(await this.c.workspaces.findOne({ _id: workspaceId }));
  }

  /**
   * Newest first (UUIDv7 `_id`s order by creation). Workspaces still marked pending are left
   * out: a bootstrap in flight, or one whose tidy-up a crash cut short until its next `getBySlug`.
   */
  async list(filter: WorkspaceFilter, p: OffsetPage): Promise<Listed<Workspace>> {
    const q: Record<string, unknown> = { pending_since: { $exists: false } };
    if (filter.plan) q.plan = filter.plan;
    if (filter.q) {
      const pattern = filter.q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      q.$or = [{ slug: { $regex: pattern, $options: "i" } }, { name: { $regex: pattern, $options: "i" } }];
    }
    const [docs, total] = await Promise.all([
      this.c.workspaces.find(q as never).sort({ created_at: -1, _id: -1 }).skip(p.offset).limit(p.limit).toArray(),
      this.c.workspaces.countDocuments(q as never),
    ]);
    return { items: docs.map(toWorkspace), total };
  }

  /** A workspace document, if its bootstrap committed (a pending one is not there yet). */
  private async committed(d: WorkspaceDoc | null): Promise<Workspace | null> {
    if (!d) return null;
    if (d.pending_since !== undefined) {
      if (!isComplete(d, await latestRoster(this.c, d._id))) return null;
      await this.unmark(d._id).catch(() => {}); // committed, marker left by a crash: tidy it
    }
    return toWorkspace(d);
  }

  async update(w: Workspace): Promise<void> {
    await this.c.workspaces.updateOne(
      { _id: w.id },
      { $set: { name: w.name, plan: w.plan, settings: { ...w.settings }, updated_at: w.updated_at } },
    );
  }

  async delete(workspaceId: string): Promise<boolean> {
    const d = await this.c.workspaces.findOne({ _id: workspaceId }, { projection: { pending_since: 1 } });
    // A bootstrap in flight owns its pending workspace: not a workspace yet.
    if (d && d.pending_since !== undefined && !isComplete(d, await latestRoster(this.c, workspaceId))) return false;
    // Not there: maybe a crashed deletion left tenant data behind, which this call finishes.
    const gone = d ? (await this.c.workspaces.deleteOne({ _id: workspaceId })).deletedCount === 1 : false;
    await this.purgeTenant(workspaceId);
    await this.c.rosters.deleteMany({ workspace_id: workspaceId });
    return gone;
  }

  async counts(workspaceId: string): Promise<WorkspaceCounts> {
    const byWorkspace = { workspace_id: workspaceId };
    const [members, api_keys, areas, repos] = await Promise.all([
      this.c.members.countDocuments(byWorkspace),
      this.c.apiKeys.countDocuments(byWorkspace),
      this.c.areas.countDocuments(byWorkspace),
      this.c.repos.countDocuments(byWorkspace),
    ]);
    return { members, api_keys, areas, repos };
  }
}
