import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { NoteShare, ShareLink } from "../../core/sharing/model.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import { topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, identity, newMember, stamp, topicFixture } from "./fixtures.ts";

/**
 * The contract of the sharing store ports (core/sharing/ports.ts): share links and inboxes. Every
 * adapter runs it; the memory adapter is the reference. Each test makes its own workspace.
 */
export function runShareStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: share link and note share stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });
    const page = { limit: 50, offset: 0 };

    async function workspace(): Promise<{ ws: string; owner: string }> {
      const b = await bootstrapped(s);
      return { ws: b.workspace.id, owner: b.member.id };
    }

    async function topic(ws: string, over: Partial<Topic> = {}): Promise<Topic> {
      const t = topicFixture(ws, over);
      expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) })).toBe("ok");
      return t;
    }

    async function member(ws: string): Promise<string> {
      const m = await s.members.add(identity(), newMember(ws));
      if (m === "already_member") throw new Error("fixture: already a member");
      return m.id;
    }

    async function deleteTopic(t: Topic) {
      const event = { ...topicEvent(null, { ...t, version: t.version + 1 }, "topic.deleted", new Date(stamp())), snapshot: null };
      expect(await s.topics.delete(t.workspace_id, t.id, null, event)).toBe("ok");
    }

    const hash = () => (crypto.randomUUID() + crypto.randomUUID()).replace(/-/g, "");
    const link = (t: Topic, over: Partial<ShareLink> = {}): ShareLink => ({
      id: uuidv7(),
      workspace_id: t.workspace_id,
      topic_id: t.id,
      token_hash: hash(),
      created_by: null,
      created_at: stamp(),
      ...over,
    });
    const share = (t: Topic, recipient: string, over: Partial<NoteShare> = {}): NoteShare => ({
      id: uuidv7(),
      workspace_id: t.workspace_id,
      topic_id: t.id,
      recipient_member_id: recipient,
      sender_id: null,
      message: null,
      created_at: stamp(),
      read_at: null,
      ...over,
    });

    // ---- share links ----

    test("ShareLinkStore.issue() makes a link that findByHash() opens with its workspace and topic", async () => {
      const { ws } = await workspace();
      const t = await topic(ws, { body: "# Hello", tags: ["a", "b"] });
      const l = link(t, { created_by: uuidv7() });
      expect(await s.shareLinks.issue(l)).toBe("ok");
      const m = await s.shareLinks.findByHash(l.token_hash);
      expect(m?.link).toEqual(l);
      expect(m?.workspace.id).toBe(ws);
      expect(m?.topic).toEqual(t);
      expect(await s.shareLinks.get(ws, t.id)).toEqual(l);
      expect(await s.shareLinks.findByHash(hash())).toBeNull();
    });

    test("ShareLinkStore.findByHash() shows the topic as it is now", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const l = link(t);
      await s.shareLinks.issue(l);
      const next = { ...t, title: "Edited", body: "new body", version: 2, updated_at: stamp() };
      expect(await s.topics.update({ topic: next, event: topicEvent(null, next, "topic.updated", new Date(next.updated_at)) })).toBe("ok");
      expect((await s.shareLinks.findByHash(l.token_hash))?.topic).toEqual(next);
    });

    test("ShareLinkStore.issue() replaces the topic's previous link: one active link per topic", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const first = link(t);
      const second = link(t);
      await s.shareLinks.issue(first);
      expect(await s.shareLinks.issue(second)).toBe("ok");
      expect(await s.shareLinks.findByHash(first.token_hash)).toBeNull();
      expect((await s.shareLinks.findByHash(second.token_hash))?.link).toEqual(second);
      expect(await s.shareLinks.get(ws, t.id)).toEqual(second);
    });

    test("ShareLinkStore.issue() leaves exactly one active link under concurrent calls", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const links = Array.from({ length: 6 }, () => link(t));
      expect(await Promise.all(links.map((l) => s.shareLinks.issue(l)))).toEqual(links.map(() => "ok"));
      const open = (await Promise.all(links.map((l) => s.shareLinks.findByHash(l.token_hash)))).filter((m) => m !== null);
      expect(open).toHaveLength(1);
      expect(await s.shareLinks.get(ws, t.id)).toEqual(open[0]!.link);
    });

    test("ShareLinkStore.issue() refuses a topic that does not exist, storing nothing", async () => {
      const { ws } = await workspace();
      const other = await workspace();
      const t = topicFixture(ws);
      const l = link(t);
      expect(await s.shareLinks.issue(l)).toBe("not_found");
      expect(await s.shareLinks.findByHash(l.token_hash)).toBeNull();
      // A topic of another workspace is not this workspace's either.
      const theirs = await topic(other.ws);
      const cross = link(theirs, { workspace_id: ws });
      expect(await s.shareLinks.issue(cross)).toBe("not_found");
      expect(await s.shareLinks.findByHash(cross.token_hash)).toBeNull();
    });

    test("ShareLinkStore.revoke() stops the token at once; revoking again is false", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const l = link(t);
      await s.shareLinks.issue(l);
      expect(await s.shareLinks.revoke(ws, t.id)).toBe(true);
      expect(await s.shareLinks.findByHash(l.token_hash)).toBeNull();
      expect(await s.shareLinks.get(ws, t.id)).toBeNull();
      expect(await s.shareLinks.revoke(ws, t.id)).toBe(false);
      // A new link works again; the revoked token stays dead.
      const again = link(t);
      await s.shareLinks.issue(again);
      expect(await s.shareLinks.findByHash(again.token_hash)).not.toBeNull();
      expect(await s.shareLinks.findByHash(l.token_hash)).toBeNull();
    });

    test("ShareLinkStore reads and revocations are scoped to the workspace", async () => {
      const { ws } = await workspace();
      const other = await workspace();
      const t = await topic(ws);
      const l = link(t);
      await s.shareLinks.issue(l);
      expect(await s.shareLinks.get(other.ws, t.id)).toBeNull();
      expect(await s.shareLinks.revoke(other.ws, t.id)).toBe(false);
      expect(await s.shareLinks.findByHash(l.token_hash)).not.toBeNull();
    });

    test("ShareLinkStore: deleting the topic removes its link", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const keep = await topic(ws);
      const l = link(t);
      const k = link(keep);
      await s.shareLinks.issue(l);
      await s.shareLinks.issue(k);
      await deleteTopic(t);
      expect(await s.shareLinks.findByHash(l.token_hash)).toBeNull();
      expect(await s.shareLinks.get(ws, t.id)).toBeNull();
      expect(await s.shareLinks.findByHash(k.token_hash)).not.toBeNull();
    });

    test("ShareLinkStore: deleting the workspace removes its links", async () => {
      const { ws } = await workspace();
      const t = await topic(ws);
      const l = link(t);
      await s.shareLinks.issue(l);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect(await s.shareLinks.findByHash(l.token_hash)).toBeNull();
      expect(await s.shareLinks.get(ws, t.id)).toBeNull();
    });

    // ---- inboxes ----

    test("NoteShareStore.inbox() lists a member's shares newest first, with the topic, paged", async () => {
      const { ws, owner } = await workspace();
      const bob = await member(ws);
      const t1 = await topic(ws, {
        title: "First",
        status: "reviewed",
        governance: { authoritative: true, approved_by: null, approved_at: stamp() },
      });
      const t2 = await topic(ws, { title: "Second", drift: { commit: "abc", files: ["a.ts"], at: stamp() } });
      const a = share(t1, bob, { sender_id: uuidv7(), message: "have a look" });
      const b = share(t2, bob);
      const mine = share(t1, owner);
      await s.noteShares.insert([a, b, mine]);
      const listed = await s.noteShares.inbox(ws, bob, {}, page);
      expect(listed.total).toBe(2);
      expect(listed.items.map((i) => i.share)).toEqual([b, a]);
      expect(listed.items[0]!.topic).toEqual({
        id: t2.id,
        slug: t2.slug,
        title: "Second",
        status: "draft",
        approved_at: null,
        drifted: true,
      });
      expect(listed.items[1]!.topic).toEqual({
        id: t1.id,
        slug: t1.slug,
        title: "First",
        status: "reviewed",
        approved_at: t1.governance.approved_at,
        drifted: false,
      });
      const second = await s.noteShares.inbox(ws, bob, {}, { limit: 1, offset: 1 });
      expect(second.total).toBe(2);
      expect(second.items.map((i) => i.share.id)).toEqual([a.id]);
      expect((await s.noteShares.inbox(ws, owner, {}, page)).items.map((i) => i.share)).toEqual([mine]);
    });

    test("NoteShareStore.inbox() filters unread and read entries", async () => {
      const { ws } = await workspace();
      const bob = await member(ws);
      const t = await topic(ws);
      const read = share(t, bob, { read_at: stamp() });
      const unread = share(t, bob);
      await s.noteShares.insert([read, unread]);
      const u = await s.noteShares.inbox(ws, bob, { unread: true }, page);
      expect([u.total, u.items.map((i) => i.share.id)]).toEqual([1, [unread.id]]);
      const r = await s.noteShares.inbox(ws, bob, { unread: false }, page);
      expect([r.total, r.items.map((i) => i.share.id)]).toEqual([1, [read.id]]);
    });

    test("NoteShareStore.markRead() marks the recipient's entry once; anyone else's is null", async () => {
      const { ws, owner } = await workspace();
      const bob = await member(ws);
      const t = await topic(ws);
      const x = share(t, bob);
      await s.noteShares.insert([x]);
      expect(await s.noteShares.markRead(ws, owner, x.id, stamp())).toBeNull();
      expect(await s.noteShares.markRead(ws, bob, uuidv7(), stamp())).toBeNull();
      const other = await workspace();
      expect(await s.noteShares.markRead(other.ws, bob, x.id, stamp())).toBeNull();
      const at = stamp();
      const marked = await s.noteShares.markRead(ws, bob, x.id, at);
      expect(marked?.share).toEqual({ ...x, read_at: at });
      expect(marked?.topic.id).toBe(t.id);
      // Read already: the first read_at stays.
      expect((await s.noteShares.markRead(ws, bob, x.id, stamp()))?.share.read_at).toBe(at);
      expect((await s.noteShares.inbox(ws, bob, { unread: true }, page)).total).toBe(0);
    });

    test("NoteShareStore.markAllRead() marks only the member's unread entries and counts them", async () => {
      const { ws, owner } = await workspace();
      const bob = await member(ws);
      const t = await topic(ws);
      const earlier = stamp();
      const shares = [share(t, bob), share(t, bob), share(t, bob, { read_at: earlier }), share(t, owner)];
      await s.noteShares.insert(shares);
      const at = stamp();
      expect(await s.noteShares.markAllRead(ws, bob, at)).toBe(2);
      const all = await s.noteShares.inbox(ws, bob, {}, page);
      expect(all.items.map((i) => i.share.read_at).sort()).toEqual([earlier, at, at].sort());
      expect(await s.noteShares.markAllRead(ws, bob, stamp())).toBe(0);
      expect((await s.noteShares.inbox(ws, owner, { unread: true }, page)).total).toBe(1);
    });

    test("NoteShareStore: inboxes are scoped to the workspace", async () => {
      const { ws } = await workspace();
      const other = await workspace();
      const bob = await member(ws);
      const t = await topic(ws);
      await s.noteShares.insert([share(t, bob)]);
      expect((await s.noteShares.inbox(other.ws, bob, {}, page)).total).toBe(0);
      expect(await s.noteShares.markAllRead(other.ws, bob, stamp())).toBe(0);
      expect((await s.noteShares.inbox(ws, bob, { unread: true }, page)).total).toBe(1);
    });

    test("NoteShareStore: deleting a topic, a member or the workspace removes their entries", async () => {
      const { ws } = await workspace();
      const bob = await member(ws);
      const carol = await member(ws);
      const gone = await topic(ws);
      const kept = await topic(ws);
      await s.noteShares.insert([share(gone, bob), share(kept, bob), share(kept, carol)]);
      await deleteTopic(gone);
      const left = await s.noteShares.inbox(ws, bob, {}, page);
      expect([left.total, left.items.map((i) => i.share.topic_id)]).toEqual([1, [kept.id]]);
      expect(await s.members.remove(ws, carol)).toBe("ok");
      expect((await s.noteShares.inbox(ws, carol, {}, page)).total).toBe(0);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect((await s.noteShares.inbox(ws, bob, {}, page)).total).toBe(0);
    });
  });
}
