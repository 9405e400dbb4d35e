import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Identity, Member, Role } from "../../../core/workspaces/model.ts";
import type { MemberView } from "../../../core/workspaces/dto.ts";
import type { Listed, MemberStore } from "../../../core/workspaces/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { inTransaction, type SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { MEMBER_VIEW_COLUMNS, memberColumns, toMember, toMemberView } from "./rows.ts";
import { type Row } from "../row-values.ts";

type SetRoleResult = MemberView | "last_owner" | null;
type RemoveResult = "ok" | "last_owner" | "not_found";

export class PostgresMemberStore implements MemberStore {
  constructor(private readonly db: SqlDriver) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<MemberView>> {
    if (!isUuid(workspaceId)) return Promise.resolve({ items: [], total: 0 });
    return listPage(this.db, {
      page: `select ${MEMBER_VIEW_COLUMNS}
             from members m join identities i on i.id = m.identity_id
             where m.workspace_id = $1
             order by m.created_at, m.id
             limit $2 offset $3`,
      count: `select count(*)::int as total from members where workspace_id = $1`,
      order: "page.created_at, page.id",
      params: [workspaceId, ...pageParams(page)],
      map: toMemberView,
    });
  }

  async get(workspaceId: string, memberId: string): Promise<MemberView | null> {
    if (!isUuid(workspaceId) || !isUuid(memberId)) return null;
    const rows = await this.db.query<Row>(
      `select ${MEMBER_VIEW_COLUMNS}
       from members m join identities i on i.id = m.identity_id
       where m.workspace_id = $1 and m.id = $2`,
      [workspaceId, memberId],
    );
    return rows[0] ? toMemberView(rows[0]) : null;
  }

  async findByIdentity(workspaceId: string, identityId: string): Promise<Member | null> {
    if (!isUuid(workspaceId) || !isUuid(identityId)) return null;
    // Served by members_identity_key, unique (workspace_id, identity_id).
    const rows = await this.db.query<Row>(`select ${memberColumns("m")} from members m where m.workspace_id = $1 and m.identity_id = $2`, [
      workspaceId,
      identityId,
    ]);
    return rows[0] ? toMember(rows[0]) : null;
  }

  add(identity: Identity, member: Omit<Member, "identity_id">): Promise<MemberView | "already_member"> {
    return inTransaction<MemberView | "already_member">(this.db, async (tx, abort) => {
      // Insert the person unless the e-mail is known (waiting out a concurrent insert of the
      // same e-mail), then read whichever row holds it: a fresh statement sees the winner.
      await tx.query(
        `insert into identities (id, email, name, created_at) values ($1, $2, $3, $4)
         on conflict (email) do nothing`,
        [identity.id, identity.email, identity.name, identity.created_at],
      );
      const found = await tx.query<{ id: string; email: string; name: string | null }>(
        `select id, email, name from identities where email = $1`,
        [identity.email],
      );
      const person = found[0];
      if (!person) throw new Error(`Cannot add member: identity ${identity.email} vanished while adding it`);
      const inserted = await tx.query<Row>(
        `insert into members (workspace_id, id, identity_id, role, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (workspace_id, identity_id) do nothing
         returning id`,
        [member.workspace_id, member.id, person.id, member.role, member.created_at, member.updated_at],
      );
      if (inserted.length === 0) return abort("already_member");
      return {
        id: member.id,
        workspace_id: member.workspace_id,
        identity_id: person.id,
        role: member.role,
        created_at: member.created_at,
        updated_at: member.updated_at,
        email: person.email,
        name: person.name,
      };
    });
  }

  setRole(workspaceId: string, memberId: string, role: Role, at: string): Promise<SetRoleResult> {
    if (!isUuid(workspaceId) || !isUuid(memberId)) return Promise.resolve(null);
    return inTransaction<SetRoleResult>(this.db, async (tx) => {
      const current = await lockAndRead(tx, workspaceId, memberId);
      if (!current) return null;
      if (current.role === "owner" && role !== "owner" && (await ownerCount(tx, workspaceId)) <= 1) {
        return "last_owner";
      }
      const rows = await tx.query<Row>(
        `with updated as (
           update members set role = $3, updated_at = $4
           where workspace_id = $1 and id = $2
           returning *
         )
         select ${memberColumns("u")}, i.email as email, i.name as name
         from updated u join identities i on i.id = u.identity_id`,
        [workspaceId, memberId, role, at],
      );
      return rows[0] ? toMemberView(rows[0]) : null;
    });
  }

  remove(workspaceId: string, memberId: string): Promise<RemoveResult> {
    if (!isUuid(workspaceId) || !isUuid(memberId)) return Promise.resolve("not_found");
    return inTransaction<RemoveResult>(this.db, async (tx) => {
      const current = await lockAndRead(tx, workspaceId, memberId);
      if (!current) return "not_found";
      if (current.role === "owner" && (await ownerCount(tx, workspaceId)) <= 1) return "last_owner";
      // The keys acting as this person in this workspace go with the membership.
      await tx.query(`delete from api_keys where workspace_id = $1 and identity_id = $2`, [
        workspaceId,
        current.identity_id,
      ]);
      await tx.query(`delete from members where workspace_id = $1 and id = $2`, [workspaceId, memberId]);
      return "ok";
    });
  }
}

/**
 * Locks the workspace row, then reads the member. Every role change and removal of the
 * workspace takes this lock first, so two of them never both count the same two owners and each
 * demote one. `for no key update` does not block the key-share locks that inserts of members or
 * keys take through their foreign keys.
 */
async function lockAndRead(
  tx: SqlDriver,
  workspaceId: string,
  memberId: string,
): Promise<{ role: Role; identity_id: string } | null> {
  const ws = await tx.query(`select id from workspaces where id = $1 for no key update`, [workspaceId]);
  if (ws.length === 0) return null;
  const rows = await tx.query<{ role: Role; identity_id: string }>(
    `select role, identity_id from members where workspace_id = $1 and id = $2`,
    [workspaceId, memberId],
  );
  return rows[0] ?? null;
}

async function ownerCount(tx: SqlDriver, workspaceId: string): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `select count(*)::int as n from members where workspace_id = $1 and role = 'owner'`,
    [workspaceId],
  );
  return Number(rows[0]?.n ?? 0);
}
