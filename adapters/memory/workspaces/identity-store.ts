import type { WorkspaceTables } from "./tables.ts";
import type { IdentityStore } from "../../../core/workspaces/ports.ts";
import type { Identity, Member, Workspace } from "../../../core/workspaces/model.ts";
import { byCreated, copy } from "../rows.ts";

export class MemoryIdentityStore implements IdentityStore {
  constructor(private t: WorkspaceTables) {}

  async getById(identityId: string): Promise<Identity | null> {
    const i = this.t.identities.get(identityId);
    return i ? copy(i) : null;
  }

  async getByEmail(email: string): Promise<Identity | null> {
    const id = this.t.identityIdByEmail.get(email);
    return id ? this.getById(id) : null;
  }

  async update(
    identityId: string,
    changes: { email?: string; name?: string | null },
    opts: { eventAt?: string } = {},
  ): Promise<Identity | "email_taken" | "stale" | null> {
    const current = this.t.identities.get(identityId);
    if (!current) return null;
    const last = this.t.identityEventAt.get(identityId);
    if (opts.eventAt !== undefined && last !== undefined && Date.parse(last) > Date.parse(opts.eventAt)) return "stale";
    if (changes.email !== undefined && changes.email !== current.email) {
      if (this.t.identityIdByEmail.has(changes.email)) return "email_taken";
      this.t.identityIdByEmail.delete(current.email);
      this.t.identityIdByEmail.set(changes.email, identityId);
    }
    const next = { ...current, ...changes };
    this.t.identities.set(identityId, next);
    if (opts.eventAt !== undefined) this.t.identityEventAt.set(identityId, opts.eventAt);
    return copy(next);
  }

  async memberships(identityId: string, limit: number): Promise<Array<{ workspace: Workspace; member: Member }>> {
    const mine = [...this.t.members.values()].filter((m) => m.identity_id === identityId).sort(byCreated).slice(0, limit);
    return mine.map((member) => ({ member: copy(member), workspace: copy(this.t.workspaces.get(member.workspace_id)!) }));
  }
}
