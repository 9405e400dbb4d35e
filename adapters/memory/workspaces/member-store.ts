import { dropMemberInbox, type SharingTables } from "../sharing/mod.ts";
import type { WorkspaceTables } from "./tables.ts";
import type { AccessTables } from "../access/mod.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed, MemberStore } from "../../../core/workspaces/ports.ts";
import type { Identity, Member, Role } from "../../../core/workspaces/model.ts";
import type { MemberView } from "../../../core/workspaces/dto.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

export class MemoryMemberStore implements MemberStore {
  constructor(private t: WorkspaceTables & AccessTables & SharingTables) {}

  private view(m: Member): MemberView {
    const i = this.t.identities.get(m.identity_id)!;
    return { ...copy(m), email: i.email, name: i.name };
  }

  async list(workspaceId: string, p: OffsetPage): Promise<Listed<MemberView>> {
    const rows = inWorkspace(this.t.members, workspaceId).sort(byCreated).map((m) => this.view(m));
    return page(rows, p.offset, p.limit);
  }

  async get(workspaceId: string, memberId: string): Promise<MemberView | null> {
    const m = this.t.members.get(memberId);
    return m && m.workspace_id === workspaceId ? this.view(m) : null;
  }

  async findByIdentity(workspaceId: string, identityId: string): Promise<Member | null> {
    const m = inWorkspace(this.t.members, workspaceId).find((x) => x.identity_id === identityId);
    return m ? copy(m) : null;
  }

  async add(candidate: Identity, member: Omit<Member, "identity_id">): Promise<MemberView | "already_member"> {
    const t = this.t;
    let identityId = t.identityIdByEmail.get(candidate.email);
    if (identityId && inWorkspace(t.members, member.workspace_id).some((m) => m.identity_id === identityId)) {
      return "already_member";
    }
    if (!identityId) {
      identityId = candidate.id;
      t.identities.set(candidate.id, copy(candidate));
      t.identityIdByEmail.set(candidate.email, candidate.id);
    }
    const row: Member = { ...member, identity_id: identityId };
    t.members.set(row.id, copy(row));
    return this.view(row);
  }

  private isLastOwner(m: Member): boolean {
    if (m.role !== "owner") return false;
    return inWorkspace(this.t.members, m.workspace_id).filter((x) => x.role === "owner").length <= 1;
  }

  async setRole(workspaceId: string, memberId: string, role: Role, at: string): Promise<MemberView | "last_owner" | null> {
    const m = this.t.members.get(memberId);
    if (!m || m.workspace_id !== workspaceId) return null;
    if (role !== "owner" && this.isLastOwner(m)) return "last_owner";
    const next = { ...m, role, updated_at: at };
    this.t.members.set(memberId, next);
    return this.view(next);
  }

  async remove(workspaceId: string, memberId: string): Promise<"ok" | "last_owner" | "not_found"> {
    const t = this.t;
    const m = t.members.get(memberId);
    if (!m || m.workspace_id !== workspaceId) return "not_found";
    if (this.isLastOwner(m)) return "last_owner";
    for (const k of inWorkspace(t.apiKeys, workspaceId)) {
      if (k.identity_id === m.identity_id) {
        t.apiKeys.delete(k.id);
        t.apiKeyIdByHash.delete(k.key_hash);
      }
    }
    dropMemberInbox(t, workspaceId, memberId);
    t.members.delete(memberId);
    return "ok";
  }
}
