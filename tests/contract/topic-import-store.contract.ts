import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { Proposal, Relation, Topic } from "../../core/topics/model.ts";
import type { TopicImportBatch } from "../../core/topics/ports.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, stamp, topicFixture } from "./fixtures.ts";

/**
 * The contract of `TopicImportStore` (core/topics/ports.ts, docs/decisions/064-markdown-import.md):
 * a batch is applied whole or not at all. The port is optional: a backend without transactions
 * (MongoDB) has none, and core writes an import one by one there.
 */
export function runTopicImportStoreContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: topic import store`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const created = (t: Topic) => ({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
    const relation = (ws: string, from: string, to: string): Relation => ({
      id: uuidv7(),
      workspace_id: ws,
      from_topic_id: from,
      to_topic_id: to,
      type: "relates_to",
      created_at: stamp(),
      created_by: null,
    });
    const proposal = (ws: string, topicId: string): Proposal => ({
      id: uuidv7(),
      workspace_id: ws,
      topic_id: topicId,
      summary: "Imported from a.md",
      patch: { body: "New" },
      base_version: 1,
      status: "open",
      author_id: null,
      via: "human",
      created_at: stamp(),
      decided_at: null,
      decided_by: null,
      merged_version: null,
    });

    /** A workspace with a draft, a reviewed topic and a relation between them; and a batch of every kind of write. */
    async function scene() {
      const ws = (await bootstrapped(s)).workspace.id;
      const draft = topicFixture(ws, { body: "Old" });
      const reviewed = topicFixture(ws, { status: "reviewed" });
      for (const t of [draft, reviewed]) expect(await s.topics.insert(created(t))).toBe("ok");
      expect(await s.relations.insert(relation(ws, draft.id, reviewed.id))).toBe("ok");
      const a = topicFixture(ws, { tags: ["imported"] });
      const b = topicFixture(ws);
      const batch: TopicImportBatch = {
        workspaceId: ws,
        inserts: [created(a), created(b)],
        updates: [changeTopic(null, draft, { body: "New" }, "topic.updated", new Date())],
        proposals: [proposal(ws, reviewed.id)],
        // The last one is the relation the workspace has already (in the other direction: relates_to reads both ways).
        relations: [relation(ws, a.id, b.id), relation(ws, a.id, draft.id), relation(ws, reviewed.id, draft.id)],
      };
      return { ws, draft, reviewed, a, b, batch };
    }

    async function unchanged(x: Awaited<ReturnType<typeof scene>>) {
      for (const t of [x.a, x.b]) expect(await s.topics.get(x.ws, t.id)).toBeNull();
      expect((await s.topics.get(x.ws, x.draft.id))?.body).toBe("Old");
      expect((await s.proposals.list(x.ws, { topicId: x.reviewed.id }, "newest", { limit: 10, offset: 0 })).total).toBe(0);
      expect((await s.relations.list(x.ws, 10)).length).toBe(1);
    }

    test("a backend that offers the port applies a batch whole: topics, events, tags, suggested edits, relations", async () => {
      if (!s.topicImports) return; // optional: core writes one by one without it
      const x = await scene();
      expect(await s.topicImports.apply(x.batch)).toBe("ok");
      expect((await s.topics.resolve(x.ws, x.a.slug))?.topic.id).toBe(x.a.id);
      expect((await s.topics.history(x.ws, x.a.id, 5)).map((e) => e.type)).toEqual(["topic.created"]);
      expect((await s.tags.get(x.ws, "imported"))?.name).toBe("imported");
      expect(await s.topics.get(x.ws, x.draft.id)).toMatchObject({ body: "New", version: 2 });
      expect((await s.proposals.list(x.ws, { topicId: x.reviewed.id }, "newest", { limit: 10, offset: 0 })).total).toBe(1);
      // The relation it had already is passed over, not doubled.
      expect((await s.relations.list(x.ws, 10)).length).toBe(3);
    });

    test("a slug held by then refuses the whole batch: nothing of it is written", async () => {
      if (!s.topicImports) return;
      const x = await scene();
      expect(await s.topics.insert(created(topicFixture(x.ws, { slug: x.b.slug })))).toBe("ok");
      expect(await s.topicImports.apply(x.batch)).toEqual({ refused: "slug_taken", slug: x.b.slug });
      await unchanged(x);
    });

    test("a topic changed since the batch was made refuses it: nothing of it is written", async () => {
      if (!s.topicImports) return;
      const x = await scene();
      expect(await s.topics.update(changeTopic(null, x.draft, { title: "Edited meanwhile" }, "topic.updated", new Date()))).toBe("ok");
      expect(await s.topicImports.apply(x.batch)).toEqual({ refused: "version_conflict", slug: x.draft.slug });
      for (const t of [x.a, x.b]) expect(await s.topics.get(x.ws, t.id)).toBeNull();
      expect(await s.topics.get(x.ws, x.draft.id)).toMatchObject({ body: "Old", title: "Edited meanwhile" });
    });

    test("of two concurrent batches creating one slug, exactly one applies", async () => {
      if (!s.topicImports) return;
      const ws = (await bootstrapped(s)).workspace.id;
      const slug = `same-${uuidv7().slice(-8)}`;
      const batches = [0, 1].map((): TopicImportBatch => ({
        workspaceId: ws,
        inserts: [created(topicFixture(ws)), created(topicFixture(ws, { slug }))],
        updates: [],
        proposals: [],
        relations: [],
      }));
      const results = await Promise.all(batches.map((b) => s.topicImports!.apply(b)));
      expect(results.filter((r) => r === "ok").length).toBe(1);
      const loser = batches[results.indexOf("ok") === 0 ? 1 : 0]!;
      expect(await s.topics.get(ws, loser.inserts[0]!.topic.id)).toBeNull();
    });
  });
}
