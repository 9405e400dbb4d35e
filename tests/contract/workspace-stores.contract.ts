import type { TestApi } from "./kit/test-api.ts";
import type { Stores } from "../../core/stores.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { apiKey, bundle, identity, newMember, stamp, unique } from "./fixtures.ts";

/**
 * The contract of the workspace and access store ports. Every adapter runs it; the memory adapter
 * is the reference. Each test makes its own workspaces, so suites may share one store.
 */
export function runWorkspaceStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: workspace and access stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });
    const page = { limit: 50, offset: 0 };

    test("WorkspaceStore.bootstrap() creates workspace, owner, membership and key together", async () => {
      const b = bundle();
      expect(await s.workspaces.bootstrap(b)).toBe("ok");
      expect(await s.workspaces.getBySlug(b.workspace.slug)).toEqual(b.workspace);
      expect(await s.workspaces.getById(b.workspace.id)).toEqual(b.workspace);
      expect(await s.workspaces.getById(crypto.randomUUID())).toBeNull();
      expect(await s.identities.getById(b.owner.identity.id)).toEqual(b.owner.identity);
      expect(await s.identities.getByEmail(b.owner.identity.email)).toEqual(b.owner.identity);
      const match = await s.apiKeys.findByHash(b.apiKey.key_hash);
      expect(match).toEqual({ key: b.apiKey, workspace: b.workspace, member: b.member });
      expect(await s.workspaces.counts(b.workspace.id)).toEqual({ members: 1, api_keys: 1, areas: 0, repos: 0 });
    });

    test("IdentityStore.update() sets e-mail and name, refuses a taken e-mail, and ignores unknown ids", async () => {
      const a = bundle();
      const b = bundle();
      expect(await s.workspaces.bootstrap(a)).toBe("ok");
      expect(await s.workspaces.bootstrap(b)).toBe("ok");
      const id = a.owner.identity.id;
      const email = `renamed-${crypto.randomUUID()}@example.com`;
      const updated = await s.identities.update(id, { email, name: "Renamed" });
      expect(updated).toEqual({ ...a.owner.identity, email, name: "Renamed" });
      expect(await s.identities.getByEmail(email)).toEqual(updated as never);
      expect(await s.identities.getByEmail(a.owner.identity.email)).toBeNull();
      expect(await s.identities.update(id, { name: null })).toEqual({ ...a.owner.identity, email, name: null });
      expect(await s.identities.update(id, { email: b.owner.identity.email })).toBe("email_taken");
      expect((await s.identities.getById(id))?.email).toBe(email);
      expect(await s.identities.update(crypto.randomUUID(), { name: "x" })).toBeNull();
      // Two people raced to one new address: exactly one gets it.
      const target = `raced-${crypto.randomUUID()}@example.com`;
      const results = await Promise.all([
        s.identities.update(id, { email: target }),
        s.identities.update(b.owner.identity.id, { email: target }),
      ]);
      expect(results.filter((r) => r === "email_taken")).toHaveLength(1);
    });

    test("IdentityStore.update() with an event time: an older event than the last applied is stale, nothing changed (ADR 042)", async () => {
      const a = bundle();
      expect(await s.workspaces.bootstrap(a)).toBe("ok");
      const id = a.owner.identity.id;
      const t = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
      expect(await s.identities.update(id, { name: "Second" }, { eventAt: t(20) })).toMatchObject({ name: "Second" });
      // Older: stale, the name stays; a change without an event time still applies and keeps the event time.
      expect(await s.identities.update(id, { name: "First" }, { eventAt: t(10) })).toBe("stale");
      expect((await s.identities.getById(id))?.name).toBe("Second");
      expect(await s.identities.update(id, { name: "By hand" })).toMatchObject({ name: "By hand" });
      expect(await s.identities.update(id, { name: "First" }, { eventAt: t(10) })).toBe("stale");
      // The same time again (an event applied again) and a later one apply; an empty change records the time.
      expect(await s.identities.update(id, { name: "Second" }, { eventAt: t(20) })).toMatchObject({ name: "Second" });
      expect(await s.identities.update(id, {}, { eventAt: t(30) })).toMatchObject({ name: "Second" });
      expect(await s.identities.update(id, { name: "Between" }, { eventAt: t(25) })).toBe("stale");
      expect(await s.identities.update(id, { name: "Third" }, { eventAt: t(40) })).toMatchObject({ name: "Third" });
      expect(await s.identities.update(crypto.randomUUID(), { name: "x" }, { eventAt: t(50) })).toBeNull();
    });

    test("WorkspaceStore.bootstrap() refuses a taken slug or e-mail and writes nothing", async () => {
      const first = bundle();
      await s.workspaces.bootstrap(first);
      const sameSlug = bundle(first.workspace.slug);
      expect(await s.workspaces.bootstrap(sameSlug)).toBe("slug_taken");
      expect(await s.identities.getById(sameSlug.owner.identity.id)).toBeNull();
      expect(await s.apiKeys.findByHash(sameSlug.apiKey.key_hash)).toBeNull();

      const sameEmail = bundle(unique("ws"), identity(first.owner.identity.email));
      expect(await s.workspaces.bootstrap(sameEmail)).toBe("email_taken");
      expect(await s.workspaces.getBySlug(sameEmail.workspace.slug)).toBeNull();
      expect(await s.apiKeys.findByHash(sameEmail.apiKey.key_hash)).toBeNull();
    });

    test("WorkspaceStore.bootstrap() lets one of many concurrent creates of a slug win", async () => {
      const slug = unique("race");
      const results = await Promise.all(Array.from({ length: 8 }, () => s.workspaces.bootstrap(bundle(slug))));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r === "slug_taken")).toHaveLength(7);
    });

    test("WorkspaceStore.bootstrap() with an existing identity adds a membership only", async () => {
      const first = bundle();
      await s.workspaces.bootstrap(first);
      const second = bundle(unique("ws"), first.owner.identity, false);
      expect(await s.workspaces.bootstrap(second)).toBe("ok");
      const mine = await s.identities.memberships(first.owner.identity.id, 10);
      expect(mine.map((m) => m.workspace.slug)).toEqual([first.workspace.slug, second.workspace.slug]);
      expect(mine.map((m) => m.member.role)).toEqual(["owner", "owner"]);
    });

    test("WorkspaceStore.update() writes name, plan and settings", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const next = { ...b.workspace, name: "Renamed", plan: "team" as const, settings: { review_interval_days: 30 }, updated_at: stamp() };
      await s.workspaces.update(next);
      expect(await s.workspaces.getBySlug(b.workspace.slug)).toEqual(next);
    });

    test("WorkspaceStore.delete() removes the workspace and all its tenant data", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      await s.areas.insert({
        id: uuidv7(),
        workspace_id: b.workspace.id,
        name: "a",
        description: null,
        created_at: stamp(),
        updated_at: stamp(),
      });
      expect(await s.workspaces.delete(b.workspace.id)).toBe(true);
      expect(await s.workspaces.getBySlug(b.workspace.slug)).toBeNull();
      expect(await s.apiKeys.findByHash(b.apiKey.key_hash)).toBeNull();
      expect(await s.workspaces.counts(b.workspace.id)).toEqual({ members: 0, api_keys: 0, areas: 0, repos: 0 });
      expect(await s.workspaces.delete(b.workspace.id)).toBe(false);
      // the identity is a person, not tenant data: it survives
      expect(await s.identities.getById(b.owner.identity.id)).not.toBeNull();
    });

    test("MemberStore.add() creates a new identity or links an existing one, once", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const newcomer = identity();
      const added = await s.members.add(newcomer, newMember(b.workspace.id));
      expect(added).toMatchObject({ identity_id: newcomer.id, email: newcomer.email, name: "Pat", role: "member" });
      expect(await s.members.add(identity(newcomer.email), newMember(b.workspace.id))).toBe("already_member");

      const other = bundle();
      await s.workspaces.bootstrap(other);
      const linked = await s.members.add(identity(newcomer.email), newMember(other.workspace.id, "admin"));
      expect(linked).toMatchObject({ identity_id: newcomer.id, role: "admin", workspace_id: other.workspace.id });
    });

    test("MemberStore.add() of one e-mail raced from many requests makes one member", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const email = `${unique("race")}@example.com`;
      const results = await Promise.all(Array.from({ length: 6 }, () => s.members.add(identity(email), newMember(b.workspace.id))));
      expect(results.filter((r) => r !== "already_member")).toHaveLength(1);
      expect((await s.members.list(b.workspace.id, page)).total).toBe(2);
    });

    test("MemberStore.list() pages oldest first with a total; get() is workspace-scoped", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      for (let i = 0; i < 3; i++) await s.members.add(identity(), newMember(b.workspace.id));
      const first = await s.members.list(b.workspace.id, { limit: 2, offset: 0 });
      const rest = await s.members.list(b.workspace.id, { limit: 2, offset: 2 });
      expect(first.total).toBe(4);
      expect(first.items).toHaveLength(2);
      expect(rest.items).toHaveLength(2);
      expect(first.items[0]!.role).toBe("owner");
      const ids = [...first.items, ...rest.items].map((m) => m.id);
      expect(new Set(ids).size).toBe(4);
      const other = bundle();
      await s.workspaces.bootstrap(other);
      expect(await s.members.get(other.workspace.id, ids[1]!)).toBeNull();
      expect(await s.members.get(b.workspace.id, ids[1]!)).toMatchObject({ id: ids[1] });
    });

    test("MemberStore.findByIdentity() finds the membership of one identity in one workspace only", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const other = bundle();
      await s.workspaces.bootstrap(other);
      expect(await s.members.findByIdentity(b.workspace.id, b.owner.identity.id)).toEqual(b.member);
      const newcomer = identity();
      const added = await s.members.add(newcomer, newMember(b.workspace.id, "admin"));
      if (added === "already_member") throw new Error("unexpected");
      const { email: _e, name: _n, ...member } = added;
      expect(await s.members.findByIdentity(b.workspace.id, newcomer.id)).toEqual(member);
      // Another workspace's member, an unknown identity, a malformed id: none.
      expect(await s.members.findByIdentity(other.workspace.id, newcomer.id)).toBeNull();
      expect(await s.members.findByIdentity(b.workspace.id, other.owner.identity.id)).toBeNull();
      expect(await s.members.findByIdentity(b.workspace.id, uuidv7())).toBeNull();
      expect(await s.members.findByIdentity(b.workspace.id, "not-an-id")).toBeNull();
      // A role change shows; a removed member is none.
      await s.members.setRole(b.workspace.id, added.id, "member", stamp());
      expect((await s.members.findByIdentity(b.workspace.id, newcomer.id))?.role).toBe("member");
      expect(await s.members.remove(b.workspace.id, added.id)).toBe("ok");
      expect(await s.members.findByIdentity(b.workspace.id, newcomer.id)).toBeNull();
    });

    test("MemberStore.setRole() and remove() never leave a workspace without an owner", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      expect(await s.members.setRole(b.workspace.id, b.member.id, "admin", stamp())).toBe("last_owner");
      expect(await s.members.remove(b.workspace.id, b.member.id)).toBe("last_owner");
      const second = await s.members.add(identity(), newMember(b.workspace.id, "owner"));
      if (second === "already_member") throw new Error("unexpected");
      expect(await s.members.setRole(b.workspace.id, b.member.id, "admin", stamp())).toMatchObject({ role: "admin" });
      expect(await s.members.remove(b.workspace.id, second.id)).toBe("last_owner");
      expect(await s.members.setRole(b.workspace.id, uuidv7(), "admin", stamp())).toBeNull();
      expect(await s.members.remove(b.workspace.id, uuidv7())).toBe("not_found");
    });

    test("MemberStore.setRole() demoting two owners at once leaves one owner", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const second = await s.members.add(identity(), newMember(b.workspace.id, "owner"));
      if (second === "already_member") throw new Error("unexpected");
      const results = await Promise.all([
        s.members.setRole(b.workspace.id, b.member.id, "member", stamp()),
        s.members.setRole(b.workspace.id, second.id, "member", stamp()),
      ]);
      expect(results.filter((r) => r === "last_owner")).toHaveLength(1);
      const owners = (await s.members.list(b.workspace.id, page)).items.filter((m) => m.role === "owner");
      expect(owners).toHaveLength(1);
    });

    test("MemberStore.remove() also revokes the member's keys in that workspace", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const m = await s.members.add(identity(), newMember(b.workspace.id));
      if (m === "already_member") throw new Error("unexpected");
      const key = apiKey(b.workspace.id, m.identity_id);
      await s.apiKeys.insert(key);
      expect(await s.members.remove(b.workspace.id, m.id)).toBe("ok");
      expect(await s.apiKeys.findByHash(key.key_hash)).toBeNull();
      expect(await s.members.get(b.workspace.id, m.id)).toBeNull();
    });

    test("ApiKeyStore finds service keys with no member, lists newest first, filters and revokes", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const service = apiKey(b.workspace.id, null);
      await s.apiKeys.insert(service);
      expect(await s.apiKeys.findByHash(service.key_hash)).toEqual({ key: service, workspace: b.workspace, member: null });
      const all = await s.apiKeys.list(b.workspace.id, page);
      expect(all.items.map((k) => k.id)).toEqual([service.id, b.apiKey.id]);
      expect(all.total).toBe(2);
      const mine = await s.apiKeys.list(b.workspace.id, page, b.owner.identity.id);
      expect(mine.items.map((k) => k.id)).toEqual([b.apiKey.id]);
      expect((await s.apiKeys.list(b.workspace.id, page, b.owner.identity.id, service.id)).items).toEqual([]);
      const other = bundle();
      await s.workspaces.bootstrap(other);
      expect(await s.apiKeys.revoke(other.workspace.id, service.id)).toBe(false);
      expect(await s.apiKeys.revoke(b.workspace.id, service.id)).toBe(true);
      expect(await s.apiKeys.findByHash(service.key_hash)).toBeNull();
      expect(await s.apiKeys.revoke(b.workspace.id, service.id)).toBe(false);
    });

    test("ApiKeyStore.touch() only moves last_used_at forward", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const later = "2030-01-01T00:00:00.000Z";
      await s.apiKeys.touch(b.workspace.id, b.apiKey.id, later);
      await s.apiKeys.touch(b.workspace.id, b.apiKey.id, "2029-01-01T00:00:00.000Z");
      expect((await s.apiKeys.findByHash(b.apiKey.key_hash))?.key.last_used_at).toBe(later);
    });

    test("AreaStore keeps names unique per workspace and scopes every call", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const area = {
        id: uuidv7(),
        workspace_id: b.workspace.id,
        name: "Payments",
        description: "money",
        created_at: stamp(),
        updated_at: stamp(),
      };
      expect(await s.areas.insert(area)).toBe("ok");
      expect(await s.areas.insert({ ...area, id: uuidv7() })).toBe("name_taken");
      const other = { ...area, id: uuidv7(), name: "Search" };
      expect(await s.areas.insert(other)).toBe("ok");
      expect(await s.areas.update({ ...other, name: "Payments" })).toBe("name_taken");
      expect(await s.areas.update({ ...other, description: null, updated_at: stamp() })).toBe("ok");
      expect(await s.areas.get(b.workspace.id, other.id)).toMatchObject({ description: null });
      expect(await s.areas.update({ ...other, id: uuidv7() })).toBe("not_found");
      expect((await s.areas.list(b.workspace.id, page)).items.map((a) => a.name)).toEqual(["Payments", "Search"]);
      const foreign = bundle();
      await s.workspaces.bootstrap(foreign);
      expect(await s.areas.insert({ ...area, id: uuidv7(), workspace_id: foreign.workspace.id })).toBe("ok");
      expect(await s.areas.get(foreign.workspace.id, area.id)).toBeNull();
      expect(await s.areas.delete(foreign.workspace.id, area.id)).toBe(false);
      expect(await s.areas.delete(b.workspace.id, area.id)).toBe(true);
      expect((await s.areas.list(b.workspace.id, page)).total).toBe(1);
    });

    test("RepoStore keeps (provider, full_name) unique per workspace", async () => {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      const repo = {
        id: uuidv7(),
        workspace_id: b.workspace.id,
        provider: "github" as const,
        full_name: "acme/api",
        default_branch: "main",
        clone_url: null,
        created_at: stamp(),
      };
      expect(await s.repos.insert(repo)).toBe("ok");
      expect(await s.repos.insert({ ...repo, id: uuidv7() })).toBe("taken");
      expect(await s.repos.insert({ ...repo, id: uuidv7(), provider: "gitlab", clone_url: "/tmp/x" })).toBe("ok");
      expect(await s.repos.get(b.workspace.id, repo.id)).toEqual(repo);
      expect((await s.repos.list(b.workspace.id, { limit: 1, offset: 1 })).items[0]).toMatchObject({
        provider: "gitlab",
        clone_url: "/tmp/x",
      });
      expect(await s.repos.delete(b.workspace.id, repo.id)).toBe(true);
      expect(await s.repos.get(b.workspace.id, repo.id)).toBeNull();
    });

    test("status() reports the store kind and health", async () => {
      const st = await s.status();
      expect(st.ok).toBe(true);
      expect(typeof st.kind).toBe("string");
      expect(st.latency_ms).toBeGreaterThanOrEqual(0);
    });
  });
}
