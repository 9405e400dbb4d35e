import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { TopicWrite } from "../../core/topics/ports.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, stamp, topicFixture } from "./fixtures.ts";

/**
 * The contract of `TopicHeadStore` (core/code-context/ports.ts, ADR 048): the heads code context
 * ranks by and the field weights of words, read under the workspace's anchor and topic versions.
 * A store may keep no topic version (`versions` null: memory, MongoDB); it then answers all the same.
 */
export function runTopicHeadStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: topic head store`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;
    const created = (t: Topic): TopicWrite => ({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
    async function add(ws: string, over: Partial<Topic> = {}): Promise<Topic> {
      const t = topicFixture(ws, over);
      expect(await s.topics.insert(created(t))).toBe("ok");
      return t;
    }
    async function update(t: Topic, patch: Partial<Topic>): Promise<Topic> {
      const w = changeTopic(null, t, patch, "topic.updated", new Date(stamp()));
      expect(await s.topics.update(w)).toBe("ok");
      return w.topic;
    }

    test("heads() gives the non-archived topics of the ids, of the workspace only, each with its position", async () => {
      const ws = await workspace();
      const approvedAt = stamp();
      const reviewed = await add(ws, {
        title: "Invoice retries",
        status: "reviewed",
        approved_via: "human",
        governance: { authoritative: true, approved_by: null, approved_at: approvedAt },
      });
      const drifted = await add(ws, { status: "proposed", drift: { commit: "abc", files: ["src/a.ts"], at: stamp() } });
      const archived = await add(ws, { status: "archived" });
      const elsewhere = await add(await workspace());
      const got = await s.topicHeads.heads(ws, [archived.id, drifted.id, elsewhere.id, uuidv7(), reviewed.id]);
      expect([...got.heads].sort((a, b) => a.at - b.at)).toEqual([
        {
          at: 1,
          id: drifted.id,
          slug: drifted.slug,
          title: drifted.title,
          status: "proposed",
          drifted: true,
          approved_via: null,
          approved_at: null,
          updated_at: drifted.updated_at,
          version: drifted.version,
        },
        {
          at: 4,
          id: reviewed.id,
          slug: reviewed.slug,
          title: "Invoice retries",
          status: "reviewed",
          drifted: false,
          approved_via: "human",
          approved_at: approvedAt,
          updated_at: reviewed.updated_at,
          version: reviewed.version,
        },
      ]);
      expect((await s.topicHeads.heads(ws, [])).heads).toEqual([]);
    });

    test("termWeights() weighs each term as search scores it: title 3, else tags 2, else body 1, else 0", async () => {
      const ws = await workspace();
      const t = await add(ws, {
        title: "Invoice Retry policy",
        tags: ["billing", "webhooks"],
        body: "A retry waits for the Webhook timeout; billing too.",
      });
      const archived = await add(ws, { title: "Old", body: "timeout", status: "archived" });
      const elsewhere = await add(await workspace(), { title: "invoice" });
      const terms = ["retry", "webhooks", "timeout", "billing", "production", "webhook", "invoice"];
      const got = await s.topicHeads.termWeights(ws, [t.id, archived.id, elsewhere.id, uuidv7()], terms);
      expect([...got.weights.entries()].sort()).toEqual(
        [[t.id, [3, 2, 1, 2, 0, 1, 3]], [archived.id, [0, 0, 1, 0, 0, 0, 0]]].sort() as [string, number[]][],
      );
    });

    test("versions(): when kept, the topic version moves with every topic write, and heads() reads the same", async () => {
      const ws = await workspace();
      const before = await s.topicHeads.versions(ws);
      if (before === null) {
        // A store without a topic version (memory, MongoDB) says so wherever it reads.
        expect((await s.topicHeads.heads(ws, [])).versions).toBeNull();
        return;
      }
      const t = await add(ws, { status: "proposed" });
      const inserted = await s.topicHeads.versions(ws);
      expect(inserted!.topics).not.toBe(before.topics);
      expect(inserted!.anchors).toBe(before.anchors); // no anchors: the anchor version stays
      const retitled = await update(t, { title: "Renamed" });
      const afterTitle = await s.topicHeads.versions(ws);
      expect(afterTitle!.topics).not.toBe(inserted!.topics);
      await update(retitled, { anchors: ["src/**"] });
      const afterAnchors = await s.topicHeads.versions(ws);
      expect(afterAnchors!.topics).not.toBe(afterTitle!.topics);
      expect(afterAnchors!.anchors).not.toBe(afterTitle!.anchors);
      expect((await s.topicHeads.heads(ws, [t.id])).versions).toEqual(afterAnchors);
      expect((await s.topicHeads.termWeights(ws, [t.id], ["renamed"])).versions).toEqual(afterAnchors);
      // Another workspace's writes leave it.
      await add(await workspace());
      expect(await s.topicHeads.versions(ws)).toEqual(afterAnchors);
    });
  });
}
