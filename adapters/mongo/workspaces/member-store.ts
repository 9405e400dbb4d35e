/**
 * Members without multi-document transactions.
 *
 * Who is an owner is decided by the workspace's roster (roster.ts): `owner_ids` of its newest
 * version. Every role change and every removal commits by inserting the next roster version, and
 * a demotion or removal of a listed owner is refused unless another owner is listed. Two
 * concurrent demotions of the last two owners read the same version; only one can insert the
 * next, the other re-reads, finds its member the only owner and answers "last_owner".
 *
 * The member document is written around that commit so that a crash at any step errs on the
 * side of keeping an owner, and readers agree with the roster:
 * - readers take `owner_ids` as the truth: a listed member is an owner whatever its document
 *   says; an unlisted member has the role its document says (`effectiveRole`);
 * - a demotion writes the new role on the member first (invisible while listed), then commits
 *   the roster without it;
 * - a promotion writes `owner` on the member first (it then already counts as an owner for
 *   readers), then commits the roster with it. An unlisted member marked owner (a promotion or an
 *   addition as owner in flight, or cut short by a crash) is adopted into `owner_ids` by the next
 *   last-owner check that would otherwise refuse, so the rule agrees with what readers see;
 * - a removal commits the roster without the member and with it in `removing`, then deletes the
 *   member's keys and the member. From the commit on, the member no longer authenticates, and a
 *   promotion refuses it: `owner_ids` never names a member whose document is being deleted, so no
 *   "ghost" owner can make the last real owner look like it has company. If a crash cuts the
 *   removal short, the member stays listed until removing it again (or the workspace's next
 *   roster change, or adding the person again) finishes it.
 */
import type { WorkspaceCollections } from "./collections.ts";
import type { AccessCollections } from "../access/mod.ts";
import type { SharingCollections } from "../sharing/mod.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Identity, Member, Role } from "../../../core/workspaces/model.ts";
import type { MemberView } from "../../../core/workspaces/dto.ts";
import type { Listed, MemberStore } from "../../../core/workspaces/ports.ts";
import { backoff } from "../retry.ts";
import { type IdentityDoc, identityDoc, type MemberDoc, type RosterDoc, toMember, toMemberView } from "./documents.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { listPage } from "../list-page.ts";
import { type MongoStoreOptions } from "../options.ts";
import { commitRoster, latestRoster, type RosterState } from "./roster.ts";

type SetRoleResult = MemberView | "last_owner" | null;
type RemoveResult = "ok" | "last_owner" | "not_found";

/** Commit attempts before giving up on a roster that keeps changing under us. */
const MAX_ATTEMPTS = 200;

export class MongoMemberStore implements MemberStore {
  constructor(
    private readonly c: WorkspaceCollections & AccessCollections & SharingCollections,
    private readonly o: MongoStoreOptions,
  ) {}

  // ---- reads ----

  /** Members with their people: one query for the page's identities, never one per member. */
  private async views(docs: MemberDoc[], roster: RosterDoc | null): Promise<MemberView[]> {
    if (docs.length === 0) return [];
    const ids = [...new Set(docs.map((d) => d.identity_id))];
    const people = await this.c.identities.find({ _id: { $in: ids } }).toArray();
    const byId = new Map(people.map((p) => [p._id, p]));
    const out: MemberView[] = [];
    for (const d of docs) {
      const person = byId.get(d.identity_id);
      if (person) out.push(toMemberView(d, roster?.owner_ids, person));
    }
    return out;
  }

  async list(workspaceId: string, page: OffsetPage): Promise<Listed<MemberView>> {
    const [roster, found] = await Promise.all([
      latestRoster(this.c, workspaceId),
      listPage(this.c.members, { workspace_id: workspaceId }, { created_at: 1, _id: 1 }, page, (d) => d),
    ]);
    return { items: await this.views(found.items, roster), total: found.total };
  }

  async get(workspaceId: string, memberId: string): Promise<MemberView | null> {
    const [roster, doc] = await Promise.all([
      latestRoster(this.c, workspaceId),
      this.c.members.findOne({ _id: memberId, workspace_id: workspaceId }),
    ]);
    return doc ? ((await this.views([doc], roster))[0] ?? null) : null;
  }

  /** By the workspace_identity_unique index; a member whose removal is committed is none (as in memberships()). */
  async findByIdentity(workspaceId: string, identityId: string): Promise<Member | null> {
    const [roster, doc] = await Promise.all([
      latestRoster(this.c, workspaceId),
      this.c.members.findOne({ workspace_id: workspaceId, identity_id: identityId }),
    ]);
    if (!doc || roster?.removing.includes(doc._id)) return null;
    return toMember(doc, roster?.owner_ids);
  }

  // ---- add ----

  async add(identity: Identity, member: Omit<Member, "identity_id">): Promise<MemberView | "already_member"> {
    const person = await this.person(identity);
    const doc: MemberDoc = {
      _id: member.id,
      workspace_id: member.workspace_id,
      identity_id: person._id,
      role: member.role,
      created_at: member.created_at,
      updated_at: member.updated_at,
    };
    try {
      await this.c.members.insertOne(doc);
    } catch (e) {
      // The (workspace_id, identity_id) unique index decides, also between concurrent adds.
      if (!isDuplicateKey(e)) throw e;
      if (!(await this.finishRemovalOf(member.workspace_id, person._id))) return "already_member";
      return this.add(identity, member);
    }
    // Marked owner, the member already counts as one; listing it makes it count for the last-owner rule.
    if (member.role === "owner") await this.listOwner(member.workspace_id, member.id);
    return toMemberView(doc, undefined, person);
  }

  /**
   * The identity with this e-mail, inserted from `candidate` if there is none, in one upsert. Two
   * concurrent upserts of a new e-mail may both try to insert: the unique index refuses one, which
   * then finds the winner's document. Claims an identity a bootstrap inserted (unsets
   * `pending_ws`), so a purge of that bootstrap leaves alone a person who is now a member here.
   */
  private async person(candidate: Identity): Promise<IdentityDoc> {
    const { _id, name, created_at } = identityDoc(candidate);
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        const d = await this.c.identities.findOneAndUpdate(
          { email: candidate.email },
          { $setOnInsert: { _id, name, created_at }, $unset: { pending_ws: "" } },
          { upsert: true, returnDocument: "after" },
        );
        if (d) return d;
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
      }
      await backoff(attempt);
    }
    throw new Error(`Cannot add member: the identity of ${candidate.email} could not be read or inserted`);
  }

  /** A membership of this identity whose removal is committed but cut short: finish it. True if one was. */
  private async finishRemovalOf(workspaceId: string, identityId: string): Promise<boolean> {
    const [roster, m] = await Promise.all([
      latestRoster(this.c, workspaceId),
      this.c.members.findOne({ workspace_id: workspaceId, identity_id: identityId }),
    ]);
    if (!m || !roster?.removing.includes(m._id)) return false;
    await this.deleteMember(m);
    return true;
  }

  /** Lists a member marked owner in `owner_ids`, unless it is gone, demoted or being removed. */
  private async listOwner(workspaceId: string, memberId: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const r = await latestRoster(this.c, workspaceId);
      if (!r || r.purged || r.owner_ids.includes(memberId) || r.removing.includes(memberId)) return;
      // Read after the roster: a member deleted since was in `removing` of that version or an older one.
      const still = await this.c.members.findOne({ _id: memberId, workspace_id: workspaceId, role: "owner" }, { projection: { _id: 1 } });
      if (!still) return;
      if (await this.commit(r, { owner_ids: [...r.owner_ids, memberId] })) return;
    }
    throw tooBusy("add an owner");
  }

  // ---- role changes ----

  async setRole(workspaceId: string, memberId: string, role: Role, at: string): Promise<SetRoleResult> {
    let original: { role: Role; updated_at: string } | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const r = await latestRoster(this.c, workspaceId);
      if (!r || r.purged || r.removing.includes(memberId)) return null;
      const listed = r.owner_ids.includes(memberId);

      // The new role on the member first: as owner it counts at once; otherwise it is invisible
      // while the member is listed, until the roster commit below.
      const before = await this.c.members.findOneAndUpdate(
        { _id: memberId, workspace_id: workspaceId },
        { $set: { role, updated_at: at } },
        { returnDocument: "before" },
      );
      if (!before) return null;
      original ??= { role: before.role, updated_at: before.updated_at };
      const after: MemberDoc = { ...before, role, updated_at: at };

      if (role === "owner") {
        if (listed || (await this.commit(r, { owner_ids: [...r.owner_ids, memberId] }))) return this.view(after, [memberId]);
        continue;
      }
      if (listed && r.owner_ids.length < 2) {
        if (await this.adoptUnlistedOwners(r)) continue;
        // Refused: put the member document back (best effort; invisible while listed anyway).
        await this.c.members.updateOne({ _id: memberId, workspace_id: workspaceId, role, updated_at: at }, { $set: original });
        return "last_owner";
      }
      // The commit, also when the member is not listed: a new version keeps a concurrent
      // adoption of this member (if its document said owner) from listing it after this change.
      if (await this.commit(r, { owner_ids: r.owner_ids.filter((id) => id !== memberId) })) return this.view(after, []);
    }
    throw tooBusy("change the role");
  }

  // ---- removal ----

  async remove(workspaceId: string, memberId: string): Promise<RemoveResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const [r, m] = await Promise.all([
        latestRoster(this.c, workspaceId),
        this.c.members.findOne({ _id: memberId, workspace_id: workspaceId }),
      ]);
      if (!m || !r || r.purged) return "not_found";
      if (r.removing.includes(memberId)) {
        // Committed already, by a removal cut short or running now: finish it.
        return (await this.deleteMember(m)) ? "ok" : "not_found";
      }
      const listed = r.owner_ids.includes(memberId);
      if (listed && r.owner_ids.length < 2) {
        if (await this.adoptUnlistedOwners(r)) continue;
        return "last_owner";
      }
      const next = { owner_ids: r.owner_ids.filter((id) => id !== memberId), removing: [...r.removing, memberId] };
      if (await this.commit(r, next)) {
        await this.deleteMember(m);
        return "ok";
      }
    }
    throw tooBusy("remove the member");
  }

  /**
   * Deletes a member whose removal is committed, keys first (the keys acting as this person in
   * this workspace go with the membership), so a crash leaves a member without keys rather than
   * keys without a member. Idempotent. True if this call deleted the member document.
   */
  private async deleteMember(m: MemberDoc): Promise<boolean> {
    await this.c.apiKeys.deleteMany({ workspace_id: m.workspace_id, identity_id: m.identity_id });
    await this.c.noteShares.deleteMany({ workspace_id: m.workspace_id, recipient_member_id: m._id });
    return (await this.c.members.deleteOne({ _id: m._id, workspace_id: m.workspace_id })).deletedCount === 1;
  }

  // ---- the roster ----

  /**
   * Commits the roster after `r` with `change` applied. Removals committed in `r` whose member
   * documents are still there (running now, or cut short by a crash) are finished on the way
   * (idempotent deletes) and dropped from `removing`, which so stays empty at rest.
   */
  private async commit(r: RosterDoc, change: Partial<RosterState>): Promise<boolean> {
    let removing = change.removing ?? r.removing;
    const settled = removing.filter((id) => r.removing.includes(id));
    if (settled.length > 0) {
      const left = await this.c.members.find({ _id: { $in: settled }, workspace_id: r.workspace_id }).toArray();
      for (const m of left) await this.deleteMember(m);
      removing = removing.filter((id) => !settled.includes(id));
    }
    const next: RosterState = { owner_ids: change.owner_ids ?? r.owner_ids, removing };
    return commitRoster(this.c, r.workspace_id, r.v, next, this.o.now());
  }

  /**
   * Members marked owner but not listed (a promotion or an addition as owner in flight, or cut
   * short by a crash) count as owners for readers; before refusing "last_owner", list them, so
   * the rule agrees with what readers see. True when the caller should re-read the roster.
   */
  private async adoptUnlistedOwners(r: RosterDoc): Promise<boolean> {
    const unlisted = await this.c.members
      .find(
        { workspace_id: r.workspace_id, role: "owner", _id: { $nin: [...r.owner_ids, ...r.removing] } },
        { projection: { _id: 1 } },
      )
      .limit(10)
      .toArray();
    if (unlisted.length === 0) return false;
    await this.commit(r, { owner_ids: [...r.owner_ids, ...unlisted.map((m) => m._id)] });
    return true;
  }

  private async view(doc: MemberDoc, ownerIds: string[]): Promise<MemberView | null> {
    const person = await this.c.identities.findOne({ _id: doc.identity_id });
    return person ? toMemberView(doc, ownerIds, person) : null;
  }
}

function tooBusy(what: string): Error {
  return new Error(`Cannot ${what}: the workspace's members kept changing concurrently; try again`);
}
