import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import { identity, newMember, stamp, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const PAGE = { offset: 0, limit: 100 };

/**
 * Workspaces' objects: a second member (a person with no name), an admin with a Unicode name
 * whose identity-provider event time is kept, areas with and without a description, repos with
 * and without a clone URL.
 */
export const workspacesSeeder: TransferSeeder = {
  module: "workspaces",
  async seed(s: Stores, ws: BootstrapBundle) {
    const wsId = ws.workspace.id;
    const plain = { ...identity(), name: null };
    const added = await s.members.add(plain, newMember(wsId));
    if (added === "already_member") throw new Error("seed: member exists");
    const admin = identity(`${unique("zoë")}@example.com`);
    await s.members.add(admin, newMember(wsId, "admin"));
    const changed = await s.identities.update(admin.id, { name: "Zoë 山田 \u{1F600}" }, { eventAt: "2026-03-04T05:06:07.089Z" });
    if (changed === null || typeof changed === "string") throw new Error(`seed: identity update ${changed}`);
    for (const description of [null, 'Ünïcode — "quoted"\n']) {
      const at = stamp();
      await s.areas.insert({ id: uuidv7(), workspace_id: wsId, name: unique("area"), description, created_at: at, updated_at: at });
    }
    for (const clone_url of [null, "https://git.example.com/acme/api.git"]) {
      await s.repos.insert({
        id: uuidv7(),
        workspace_id: wsId,
        provider: clone_url ? "git" : "github",
        full_name: unique("acme/api"),
        default_branch: "main",
        clone_url,
        created_at: stamp(),
      });
    }
    await s.workspaces.update({ ...ws.workspace, name: `${ws.workspace.name} ✓`, plan: "team", updated_at: stamp() });
  },
  async verify(source: Stores, target: Stores, ws: BootstrapBundle, expect) {
    const wsId = ws.workspace.id;
    expect(await target.workspaces.getBySlug(ws.workspace.slug)).toEqual(await source.workspaces.getBySlug(ws.workspace.slug));
    expect(await target.workspaces.getById(wsId)).toEqual(await source.workspaces.getById(wsId));
    const members = await source.members.list(wsId, PAGE);
    expect(members.total).toBe(3);
    expect(await target.members.list(wsId, PAGE)).toEqual(members);
    for (const m of members.items) {
      expect(await target.identities.getByEmail(m.email)).toEqual(await source.identities.getByEmail(m.email));
      expect(await target.members.findByIdentity(wsId, m.identity_id)).toEqual(await source.members.findByIdentity(wsId, m.identity_id));
      expect(await target.identities.memberships(m.identity_id, 10)).toEqual(await source.identities.memberships(m.identity_id, 10));
    }
    expect(await target.areas.list(wsId, PAGE)).toEqual(await source.areas.list(wsId, PAGE));
    const repos = await source.repos.list(wsId, PAGE);
    expect(await target.repos.list(wsId, PAGE)).toEqual(repos);
    for (const r of repos.items) {
      expect(await target.repos.findByFullName(r.full_name, 5)).toEqual(await source.repos.findByFullName(r.full_name, 5));
    }
    expect(await target.workspaces.counts(wsId)).toEqual(await source.workspaces.counts(wsId));
    // The provider event time moved with the person: an older event is stale on the copy too.
    const admin = members.items.find((m) => m.role === "admin")!;
    expect(await target.identities.update(admin.identity_id, { name: "late" }, { eventAt: "2026-03-04T05:06:07.000Z" })).toBe("stale");
    // The owner rule holds on the copy: the only owner cannot be demoted.
    const owner = members.items.find((m) => m.role === "owner")!;
    expect(await target.members.setRole(wsId, owner.id, "member", stamp())).toBe("last_owner");
    // New rows still go in beside the copied ones.
    const at = stamp();
    expect(
      await target.areas.insert({
        id: uuidv7(),
        workspace_id: wsId,
        name: unique("new"),
        description: null,
        created_at: at,
        updated_at: at,
      }),
    )
      .toBe("ok");
  },
};
