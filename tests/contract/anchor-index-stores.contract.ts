import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { TopicWrite } from "../../core/topics/ports.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, stamp, topicFixture } from "./fixtures.ts";

/**
 * The contract of `AnchorIndexStore` (core/code-context/ports.ts, ADR 038): the anchors of a
 * workspace and the anchor version they are at, which moves with every write of anchors or repo.
 * A store may keep no version (`load` null: MongoDB); it then only answers `read`.
 */
export function runAnchorIndexStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: anchor index store`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;
    const created = (t: Topic): TopicWrite => ({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
    const edit = (t: Topic, patch: Partial<Topic>) => changeTopic(null, t, patch, "topic.updated", new Date(stamp()));
    async function add(ws: string, over: Partial<Topic> = {}): Promise<Topic> {
      const t = topicFixture(ws, over);
      expect(await s.topics.insert(created(t))).toBe("ok");
      return t;
    }
    async function update(t: Topic, patch: Partial<Topic>): Promise<Topic> {
      const w = edit(t, patch);
      expect(await s.topics.update(w)).toBe("ok");
      return w.topic;
    }
    const version = async (ws: string) => (await s.anchorIndex.load(ws))?.version ?? null;

    test("load() holds every anchored topic of the workspace, archived ones too, with its repo and anchors in order", async () => {
      const ws = await workspace();
      const repo = uuidv7();
      const a = await add(ws, { repo_id: repo, anchors: ["src/b/**", "src/a.ts"] });
      const archived = await add(ws, { anchors: ["docs/**/*.md"], status: "archived" });
      await add(ws, { anchors: [] });
      await add(await workspace(), { anchors: ["src/**"] });
      const loaded = await s.anchorIndex.load(ws);
      if (loaded === null) return; // a store without versions (MongoDB): nothing to load
      expect([...loaded.topics].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
        [
          { id: a.id, repo_id: repo, anchors: ["src/b/**", "src/a.ts"] },
          { id: archived.id, repo_id: null, anchors: ["docs/**/*.md"] },
        ].sort((x, y) => (x.id < y.id ? -1 : 1)),
      );
    });

    test("the anchor version moves with a topic inserted with anchors, and with a change of anchors or repo", async () => {
      const ws = await workspace();
      const v0 = await version(ws);
      if (v0 === null) return; // a store without versions (MongoDB)
      const t = await add(ws, { anchors: ["src/**"] });
      const v1 = await version(ws);
      expect(v1).not.toBe(v0);
      const moved = await update(t, { anchors: ["lib/**"] });
      const v2 = await version(ws);
      expect(v2).not.toBe(v1);
      const relinked = await update(moved, { repo_id: uuidv7() });
      const v3 = await version(ws);
      expect(v3).not.toBe(v2);
      await update(relinked, { anchors: [] });
      expect(await version(ws)).not.toBe(v3);
      expect((await s.anchorIndex.load(ws))!.topics).toEqual([]);
    });

    test("read() gives the non-archived topics of the ids, of the workspace only, with the version load() gives", async () => {
      const ws = await workspace();
      const live = await add(ws, { anchors: ["src/**"], status: "proposed" });
      const archived = await add(ws, { anchors: ["src/**"], status: "archived" });
      const elsewhere = await add(await workspace(), { anchors: ["src/**"] });
      const got = await s.anchorIndex.read(ws, [live.id, archived.id, elsewhere.id, uuidv7()]);
      expect(got.topics).toEqual([live]);
      expect((await s.anchorIndex.read(ws, [])).topics).toEqual([]);
      const loaded = await s.anchorIndex.load(ws);
      if (loaded) expect(got.version).toBe(loaded.version);
      const lean = await s.anchorIndex.read(ws, [live.id], { bodyChars: 0 });
      expect(lean.topics.map((t) => [t.id, t.title, t.anchors, t.status])).toEqual([[live.id, live.title, live.anchors, "proposed"]]);
    });

    test("heads() gives the same topics' heads in match order, each with its position in the ids asked, stale by the instant given", async () => {
      const ws = await workspace();
      const day = (d: number) => new Date(Date.UTC(2026, 0, d)).toISOString();
      const governance = (approvedAt: string) => ({ authoritative: false, approved_by: null, approved_at: approvedAt });
      const draft = await add(ws, { anchors: ["a/**"], title: "Draft", updated_at: day(20) });
      const oldReview = await add(ws, {
        anchors: ["a/**"],
        title: "Old review",
        status: "reviewed",
        governance: governance(day(1)),
        approved_via: "human",
        updated_at: day(2),
      });
      const freshReview = await add(ws, {
        anchors: ["a/**"],
        title: "Fresh review",
        status: "reviewed",
        governance: governance(day(10)),
        approved_via: "agent",
        updated_at: day(10),
      });
      const driftedDraft = await add(ws, {
        anchors: ["a/**"],
        title: "Drifted draft",
        drift: { commit: "abc", files: ["a/x.ts"], at: day(5) },
        updated_at: day(5),
      });
      const proposed = await add(ws, { anchors: ["a/**"], title: "Proposed", status: "proposed", updated_at: day(3) });
      const archived = await add(ws, { anchors: ["a/**"], status: "archived" });
      const elsewhere = await add(await workspace(), { anchors: ["a/**"] });
      const ids = [draft.id, oldReview.id, archived.id, freshReview.id, elsewhere.id, driftedDraft.id, proposed.id, uuidv7(), "not-a-uuid"];
      const got = await s.anchorIndex.heads(ws, ids, day(5));
      // Reviewed, proposed, draft; within a verdict drifted first, then the most recently updated.
      expect(got.topics).toEqual([
        {
          at: 3,
          id: freshReview.id,
          slug: freshReview.slug,
          title: "Fresh review",
          status: "reviewed",
          drifted: false,
          stale: false,
          approved_via: "agent",
        },
        {
          at: 1,
          id: oldReview.id,
          slug: oldReview.slug,
          title: "Old review",
          status: "reviewed",
          drifted: false,
          stale: true,
          approved_via: "human",
        },
        {
          at: 6,
          id: proposed.id,
          slug: proposed.slug,
          title: "Proposed",
          status: "proposed",
          drifted: false,
          stale: false,
          approved_via: null,
        },
        {
          at: 5,
          id: driftedDraft.id,
          slug: driftedDraft.slug,
          title: "Drifted draft",
          status: "draft",
          drifted: true,
          stale: false,
          approved_via: null,
        },
        { at: 0, id: draft.id, slug: draft.slug, title: "Draft", status: "draft", drifted: false, stale: false, approved_via: null },
      ]);
      const loaded = await s.anchorIndex.load(ws);
      if (loaded) expect(got.version).toBe(loaded.version);
      expect(got.version).toBe((await s.anchorIndex.read(ws, [])).version);
      expect((await s.anchorIndex.heads(ws, [], day(5))).topics).toEqual([]);
    });
  });
}
