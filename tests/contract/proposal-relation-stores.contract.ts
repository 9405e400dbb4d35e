import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { GraphNodeRow, Proposal, Relation, RelationType, Topic } from "../../core/topics/model.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, stamp, topicFixture } from "./fixtures.ts";

/**
 * The contract of the proposal and relation store ports (`ProposalStore`, `RelationStore` in
 * core/topics/ports.ts). Every adapter runs it; the memory adapter is the reference.
 */
export function runProposalRelationStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: proposal and relation stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });
    const page = { limit: 50, offset: 0 };

    const workspace = async () => (await bootstrapped(s)).workspace.id;

    async function add(ws: string, over: Partial<Topic> = {}): Promise<Topic> {
      const t = topicFixture(ws, over);
      expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) })).toBe("ok");
      return t;
    }

    function proposal(ws: string, topicId: string, over: Partial<Proposal> = {}): Proposal {
      return {
        id: uuidv7(),
        workspace_id: ws,
        topic_id: topicId,
        summary: "Fix the title",
        patch: { title: "Better", area_id: null, tags: ["a", "b"] },
        base_version: 1,
        status: "open",
        author_id: null,
        via: "agent",
        created_at: stamp(),
        decided_at: null,
        decided_by: null,
        merged_version: null,
        ...over,
      };
    }

    function relation(ws: string, from: string, to: string, type: RelationType = "depends_on", over: Partial<Relation> = {}): Relation {
      return { id: uuidv7(), workspace_id: ws, from_topic_id: from, to_topic_id: to, type, created_at: stamp(), created_by: null, ...over };
    }

    const ends = (rs: Relation[]) => rs.map((r) => [r.from_topic_id, r.to_topic_id, r.type]);

    // ---- proposals ----

    test("ProposalStore.insert() stores a proposal that get() returns, scoped to the workspace", async () => {
      const ws = await workspace();
      const other = await workspace();
      const t = await add(ws);
      const p = proposal(ws, t.id, { author_id: uuidv7(), via: "human" });
      await s.proposals.insert(p);
      expect(await s.proposals.get(ws, p.id)).toEqual(p);
      expect(await s.proposals.get(other, p.id)).toBeNull();
      expect(await s.proposals.get(ws, uuidv7())).toBeNull();
      expect((await s.proposals.list(other, {}, "newest", page)).total).toBe(0);
    });

    test("ProposalStore.list() filters by topic and status, newest or oldest first, and pages", async () => {
      const ws = await workspace();
      const a = await add(ws);
      const b = await add(ws);
      const p1 = proposal(ws, a.id);
      const p2 = proposal(ws, b.id);
      const p3 = proposal(ws, a.id, { status: "rejected", decided_at: stamp(), decided_by: uuidv7() });
      const p4 = proposal(ws, a.id);
      for (const p of [p1, p2, p3, p4]) await s.proposals.insert(p);
      const ids = async (...args: Parameters<Stores["proposals"]["list"]>) => (await s.proposals.list(...args)).items.map((x) => x.id);
      expect(await ids(ws, { topicId: a.id }, "newest", page)).toEqual([p4.id, p3.id, p1.id]);
      expect(await ids(ws, { topicId: a.id, status: "open" }, "newest", page)).toEqual([p4.id, p1.id]);
      expect(await ids(ws, { status: "open" }, "oldest", page)).toEqual([p1.id, p2.id, p4.id]);
      expect(await ids(ws, { status: "merged" }, "oldest", page)).toEqual([]);
      expect(await s.proposals.list(ws, { topicId: a.id }, "newest", { limit: 1, offset: 1 })).toEqual({ items: [p3], total: 3 });
      expect(await s.proposals.list(ws, {}, "oldest", { limit: 2, offset: 10 })).toEqual({ items: [], total: 4 });
    });

    test("ProposalStore.decide() closes an open proposal once, also under concurrent decisions", async () => {
      const ws = await workspace();
      const t = await add(ws);
      const p = proposal(ws, t.id);
      await s.proposals.insert(p);
      const decision = { status: "merged" as const, decided_at: stamp(), decided_by: uuidv7(), merged_version: 2 };
      expect(await s.proposals.decide(ws, p.id, decision)).toBe("ok");
      expect(await s.proposals.get(ws, p.id)).toEqual({ ...p, ...decision });
      expect(await s.proposals.decide(ws, p.id, { ...decision, status: "rejected", merged_version: null })).toBe("not_open");
      expect((await s.proposals.get(ws, p.id))?.status).toBe("merged");
      expect(await s.proposals.decide(ws, uuidv7(), decision)).toBe("not_found");
      expect(await s.proposals.decide(await workspace(), p.id, decision)).toBe("not_found");

      const q = proposal(ws, t.id);
      await s.proposals.insert(q);
      const results = await Promise.all(
        Array.from(
          { length: 6 },
          (_, i) =>
            s.proposals.decide(ws, q.id, {
              status: i % 2 ? "merged" : "rejected",
              decided_at: stamp(),
              decided_by: null,
              merged_version: i % 2 ? 2 : null,
            }),
        ),
      );
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r === "not_open")).toHaveLength(5);
      const i = results.indexOf("ok");
      expect((await s.proposals.get(ws, q.id))?.status).toBe(i % 2 ? "merged" : "rejected");
      expect((await s.proposals.list(ws, { status: "open" }, "oldest", page)).total).toBe(0);
    });

    test("ProposalStore.removeTopic() deletes that topic's proposals only", async () => {
      const ws = await workspace();
      const a = await add(ws);
      const b = await add(ws);
      const pa = proposal(ws, a.id);
      const pb = proposal(ws, b.id);
      await s.proposals.insert(pa);
      await s.proposals.insert(pb);
      await s.proposals.removeTopic(ws, a.id);
      expect(await s.proposals.get(ws, pa.id)).toBeNull();
      expect(await s.proposals.get(ws, pb.id)).toEqual(pb);
    });

    // ---- relations ----

    test("RelationStore.insert() stores a relation; the same one again is a duplicate (either way round for symmetric types)", async () => {
      const ws = await workspace();
      const [a, b] = [await add(ws), await add(ws)];
      const r = relation(ws, a.id, b.id, "depends_on", { created_by: uuidv7() });
      expect(await s.relations.insert(r)).toBe("ok");
      expect(await s.relations.get(ws, r.id)).toEqual(r);
      expect(await s.relations.insert(relation(ws, a.id, b.id, "depends_on"))).toBe("duplicate");
      // Directed: the reverse is another relation; another type is another relation.
      expect(await s.relations.insert(relation(ws, b.id, a.id, "depends_on"))).toBe("ok");
      expect(await s.relations.insert(relation(ws, a.id, b.id, "part_of"))).toBe("ok");
      // Symmetric: the reverse is the same relation.
      expect(await s.relations.insert(relation(ws, a.id, b.id, "relates_to"))).toBe("ok");
      expect(await s.relations.insert(relation(ws, b.id, a.id, "relates_to"))).toBe("duplicate");
      expect(await s.relations.insert(relation(ws, b.id, a.id, "contradicts"))).toBe("ok");
      expect(await s.relations.insert(relation(ws, a.id, b.id, "contradicts"))).toBe("duplicate");
      expect(await s.relations.list(ws, 100)).toHaveLength(5);
      // Both ends must be topics of the workspace.
      expect(await s.relations.insert(relation(ws, a.id, uuidv7()))).toBe("not_found");
      expect(await s.relations.insert(relation(await workspace(), a.id, b.id))).toBe("not_found");
      expect(await s.relations.list(ws, 100)).toHaveLength(5);
    });

    test("RelationStore.insert() lets exactly one of concurrent inserts of one relation in", async () => {
      const ws = await workspace();
      const [a, b] = [await add(ws), await add(ws)];
      const results = await Promise.all(
        Array.from(
          { length: 6 },
          (_, i) => s.relations.insert(i % 2 ? relation(ws, a.id, b.id, "relates_to") : relation(ws, b.id, a.id, "relates_to")),
        ),
      );
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(await s.relations.list(ws, 100)).toHaveLength(1);
    });

    test("RelationStore reads are scoped to the workspace", async () => {
      const ws = await workspace();
      const other = await workspace();
      const [a, b] = [await add(ws), await add(ws)];
      const r = relation(ws, a.id, b.id);
      await s.relations.insert(r);
      expect(await s.relations.get(other, r.id)).toBeNull();
      expect(await s.relations.ofTopics(other, [a.id], 10)).toEqual([]);
      expect(await s.relations.list(other, 10)).toEqual([]);
      expect(await s.relations.delete(other, r.id)).toBe(false);
      expect(await s.relations.nodes(other, [a.id])).toEqual([]);
      expect(await s.relations.allNodes(other, true, 10)).toEqual([]);
      // The same pair in another workspace is not a duplicate.
      const [c, d] = [await add(other), await add(other)];
      expect(await s.relations.insert(relation(other, c.id, d.id))).toBe("ok");
    });

    test("RelationStore.ofTopics() returns relations in both directions, oldest first, up to the limit", async () => {
      const ws = await workspace();
      const [a, b, c, d] = [await add(ws), await add(ws), await add(ws), await add(ws)];
      const r1 = relation(ws, a.id, b.id);
      const r2 = relation(ws, c.id, a.id, "part_of");
      const r3 = relation(ws, c.id, d.id, "supersedes");
      const r4 = relation(ws, b.id, d.id, "relates_to");
      for (const r of [r1, r2, r3, r4]) expect(await s.relations.insert(r)).toBe("ok");
      expect(await s.relations.ofTopics(ws, [a.id], 10)).toEqual([r1, r2]);
      expect(await s.relations.ofTopics(ws, [a.id, d.id], 10)).toEqual([r1, r2, r3, r4]);
      expect(await s.relations.ofTopics(ws, [a.id, d.id], 3)).toEqual([r1, r2, r3]);
      expect(await s.relations.ofTopics(ws, [uuidv7()], 10)).toEqual([]);
      expect(await s.relations.ofTopics(ws, [], 10)).toEqual([]);
      expect(await s.relations.list(ws, 10)).toEqual([r1, r2, r3, r4]);
      expect(await s.relations.list(ws, 2)).toEqual([r1, r2]);
    });

    test("RelationStore.delete() deletes once", async () => {
      const ws = await workspace();
      const [a, b] = [await add(ws), await add(ws)];
      const r = relation(ws, a.id, b.id);
      await s.relations.insert(r);
      expect(await s.relations.delete(ws, r.id)).toBe(true);
      expect(await s.relations.get(ws, r.id)).toBeNull();
      expect(await s.relations.delete(ws, r.id)).toBe(false);
      // Deleted, the same relation may be made again.
      expect(await s.relations.insert(relation(ws, a.id, b.id))).toBe("ok");
    });

    test("RelationStore.retarget() carries a merged topic's relations to the target, dropping self-relations and duplicates", async () => {
      const ws = await workspace();
      const [src, tgt, x, y] = [await add(ws), await add(ws), await add(ws), await add(ws)];
      const who = uuidv7();
      const keep1 = relation(ws, src.id, x.id, "depends_on", { created_by: who });
      const keep2 = relation(ws, y.id, src.id, "part_of");
      const self = relation(ws, src.id, tgt.id, "supersedes");
      const dup = relation(ws, x.id, src.id, "relates_to");
      const existing = relation(ws, tgt.id, x.id, "relates_to");
      const untouched = relation(ws, x.id, y.id);
      for (const r of [keep1, keep2, self, dup, existing, untouched]) expect(await s.relations.insert(r)).toBe("ok");
      const minted: string[] = [];
      const n = await s.relations.retarget(ws, src.id, tgt.id, () => {
        const id = uuidv7();
        minted.push(id);
        return id;
      });
      expect(n).toBe(2);
      expect(await s.relations.ofTopics(ws, [src.id], 10)).toEqual([]);
      const onTarget = await s.relations.ofTopics(ws, [tgt.id], 10);
      expect(ends(onTarget).sort()).toEqual(
        [
          [tgt.id, x.id, "depends_on"],
          [y.id, tgt.id, "part_of"],
          [tgt.id, x.id, "relates_to"],
        ].sort(),
      );
      const carried = onTarget.find((r) => r.type === "depends_on")!;
      expect(minted).toContain(carried.id);
      expect(carried).toMatchObject({ created_at: keep1.created_at, created_by: who });
      expect(await s.relations.get(ws, untouched.id)).toEqual(untouched);
      expect(await s.relations.retarget(ws, src.id, tgt.id, uuidv7)).toBe(0);
    });

    test("RelationStore.removeTopic() deletes a topic's relations in both directions", async () => {
      const ws = await workspace();
      const [a, b, c] = [await add(ws), await add(ws), await add(ws)];
      const r1 = relation(ws, a.id, b.id);
      const r2 = relation(ws, c.id, a.id);
      const r3 = relation(ws, b.id, c.id);
      for (const r of [r1, r2, r3]) await s.relations.insert(r);
      await s.relations.removeTopic(ws, a.id);
      expect(await s.relations.list(ws, 10)).toEqual([r3]);
    });

    test("RelationStore.nodes() and allNodes() read topics without their text", async () => {
      const ws = await workspace();
      const gov = { authoritative: true, approved_by: null, approved_at: "2026-02-01T00:00:00.000Z" };
      const a = await add(ws, { title: "Alpha", body: "long text", status: "reviewed", governance: gov });
      const b = await add(ws, { title: "Beta", drift: { commit: "abc", files: ["x.ts"], at: stamp() } });
      const c = await add(ws, { title: "Gamma", status: "archived" });
      const rowA: GraphNodeRow = {
        id: a.id,
        slug: a.slug,
        title: "Alpha",
        status: "reviewed",
        approved_at: gov.approved_at,
        drifted: false,
      };
      const rowB: GraphNodeRow = { id: b.id, slug: b.slug, title: "Beta", status: "draft", approved_at: null, drifted: true };
      const rowC: GraphNodeRow = { id: c.id, slug: c.slug, title: "Gamma", status: "archived", approved_at: null, drifted: false };
      const sortById = <T extends { id: string }>(xs: T[]) => [...xs].sort((x, y) => (x.id < y.id ? -1 : 1));
      expect(sortById(await s.relations.nodes(ws, [c.id, a.id, uuidv7()]))).toEqual(sortById([rowA, rowC]));
      expect(await s.relations.nodes(ws, [])).toEqual([]);
      expect(await s.relations.allNodes(ws, false, 10)).toEqual([rowA, rowB]);
      expect(await s.relations.allNodes(ws, true, 10)).toEqual([rowA, rowB, rowC]);
      expect(await s.relations.allNodes(ws, true, 2)).toEqual([rowA, rowB]);
    });

    test("RelationStore.fingerprint() changes with every topic change, relation change and stale count, and only then", async () => {
      const ws = await workspace();
      const empty = await s.relations.fingerprint(ws, stamp());
      expect(empty).toEqual({ lastEventId: null, eventCount: 0, relationMarker: expect.any(String), staleCount: 0 });
      const a = await add(ws);
      const b = await add(ws, {
        status: "reviewed",
        governance: { authoritative: true, approved_by: null, approved_at: "2026-01-01T00:00:00.000Z" },
      });
      const before = "2025-06-01T00:00:00.000Z";
      const f1 = await s.relations.fingerprint(ws, before);
      expect(f1).toMatchObject({ eventCount: 2, staleCount: 0 });
      expect(f1.lastEventId).not.toBeNull();
      expect(await s.relations.fingerprint(ws, before)).toEqual(f1);
      // Time passes: b becomes stale.
      expect((await s.relations.fingerprint(ws, "2027-01-01T00:00:00.000Z")).staleCount).toBe(1);
      // A topic change.
      const w = changeTopic(null, a, { title: "Changed" }, "topic.updated", new Date(stamp()));
      expect(await s.topics.update(w)).toBe("ok");
      const f2 = await s.relations.fingerprint(ws, before);
      expect(f2).toMatchObject({ lastEventId: w.event.id, eventCount: 3, relationMarker: f1.relationMarker });
      // A relation added, then removed.
      const r = relation(ws, a.id, b.id);
      await s.relations.insert(r);
      const f3 = await s.relations.fingerprint(ws, before);
      expect(f3.relationMarker).not.toBe(f2.relationMarker);
      expect(f3.lastEventId).toBe(f2.lastEventId);
      expect(await s.relations.insert(relation(ws, a.id, b.id))).toBe("duplicate");
      await s.relations.delete(ws, r.id);
      const f4 = await s.relations.fingerprint(ws, before);
      expect(f4.relationMarker).not.toBe(f3.relationMarker);
      expect(f4.relationMarker).not.toBe(f2.relationMarker);
      // Another workspace's changes leave it alone.
      const other = await workspace();
      const o1 = await add(other);
      const o2 = await add(other);
      await s.relations.insert(relation(other, o1.id, o2.id));
      expect(await s.relations.fingerprint(ws, before)).toEqual(f4);
    });

    test("WorkspaceStore.delete() removes the workspace's proposals and relations", async () => {
      const b = await bootstrapped(s);
      const ws = b.workspace.id;
      const [x, y] = [await add(ws), await add(ws)];
      const p = proposal(ws, x.id);
      await s.proposals.insert(p);
      const r = relation(ws, x.id, y.id);
      await s.relations.insert(r);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect(await s.proposals.get(ws, p.id)).toBeNull();
      expect(await s.relations.get(ws, r.id)).toBeNull();
      expect(await s.relations.list(ws, 10)).toEqual([]);
    });
  });
}
