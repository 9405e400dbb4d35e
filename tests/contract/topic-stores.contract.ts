import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { TopicWrite } from "../../core/topics/ports.ts";
import { compareRanked, scoreTopic } from "../../core/topics/search-rank.ts";
import { topicTerms } from "../../core/topics/search-terms.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, stamp, topicFixture, unique } from "./fixtures.ts";

/**
 * The contract of the topic and tag store ports (core/topics/ports.ts). Every adapter runs it;
 * the memory adapter is the reference. Each test makes its own workspace.
 */
export function runTopicStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: topic and tag stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });
    const page = { limit: 50, offset: 0 };

    const workspace = async () => (await bootstrapped(s)).workspace.id;

    const topic = topicFixture;

    const created = (t: Topic): TopicWrite => ({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
    const edit = (t: Topic, patch: Partial<Topic>, type: Parameters<typeof changeTopic>[3] = "topic.updated") =>
      changeTopic(null, t, patch, type, new Date(stamp()));

    async function add(ws: string, over: Partial<Topic> = {}): Promise<Topic> {
      const t = topic(ws, over);
      expect(await s.topics.insert(created(t))).toBe("ok");
      return t;
    }

    test("TopicStore.insert() stores a topic that get() and resolve() return", async () => {
      const ws = await workspace();
      const t = await add(ws, { tags: ["api", "design"], body: "Body **md**" });
      expect(await s.topics.get(ws, t.id)).toEqual(t);
      expect(await s.topics.resolve(ws, t.slug)).toEqual({ topic: t, redirectedFrom: null });
      expect(await s.topics.resolve(ws, "no-such-slug")).toBeNull();
      expect(await s.topics.get(ws, uuidv7())).toBeNull();
    });

    test("TopicStore.insert() refuses a slug a topic holds, also under concurrent inserts", async () => {
      const ws = await workspace();
      const t = await add(ws);
      expect(await s.topics.insert(created(topic(ws, { slug: t.slug })))).toBe("slug_taken");
      const slug = unique("race");
      const results = await Promise.all(Array.from({ length: 6 }, () => s.topics.insert(created(topic(ws, { slug })))));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect((await s.topics.list(ws, {}, page)).total).toBe(2);
    });

    test("TopicStore reads are scoped to the workspace", async () => {
      const ws = await workspace();
      const other = await workspace();
      const t = await add(ws, { tags: ["x"], title: "secret plans" });
      expect(await s.topics.get(other, t.id)).toBeNull();
      expect(await s.topics.resolve(other, t.slug)).toBeNull();
      expect((await s.topics.list(other, {}, page)).total).toBe(0);
      expect((await s.topics.search(other, { terms: ["secret"], statuses: ["draft"], limit: 10 })).total).toBe(0);
      expect(await s.tags.get(other, "x")).toBeNull();
      expect(await s.topics.history(other, t.id, 10)).toEqual([]);
    });

    test("TopicStore.update() applies a write made against the stored version only", async () => {
      const ws = await workspace();
      const t = await add(ws);
      const w = edit(t, { title: "Renamed", body: "new" });
      expect(await s.topics.update(w)).toBe("ok");
      expect(await s.topics.get(ws, t.id)).toEqual(w.topic);
      expect(await s.topics.update(edit(t, { title: "Stale" }))).toBe("version_conflict");
      expect((await s.topics.get(ws, t.id))?.title).toBe("Renamed");
      expect(await s.topics.update(edit(topic(ws), { title: "x" }))).toBe("not_found");
    });

    test("TopicStore.update() lets exactly one of concurrent writers of one version win", async () => {
      const ws = await workspace();
      const t = await add(ws);
      const writes = Array.from({ length: 6 }, (_, i) => edit(t, { title: `Writer ${i}` }));
      const results = await Promise.all(writes.map((w) => s.topics.update(w)));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r === "version_conflict")).toHaveLength(5);
      const winner = writes[results.indexOf("ok")]!;
      expect(await s.topics.get(ws, t.id)).toEqual(winner.topic);
      expect((await s.topics.history(ws, t.id, 10)).map((e) => e.version)).toEqual([2, 1]);
    });

    test("TopicStore.update() with a new slug leaves the old one as a redirect", async () => {
      const ws = await workspace();
      const t = await add(ws);
      const other = await add(ws);
      expect(await s.topics.update(edit(t, { slug: other.slug }))).toBe("slug_taken");
      expect((await s.topics.get(ws, t.id))?.version).toBe(1);
      const moved = edit(t, { slug: unique("moved") }, "topic.moved");
      expect(await s.topics.update(moved)).toBe("ok");
      expect(await s.topics.resolve(ws, t.slug)).toEqual({ topic: moved.topic, redirectedFrom: t.slug });
      expect(await s.topics.resolve(ws, moved.topic.slug)).toEqual({ topic: moved.topic, redirectedFrom: null });
      // Moving back takes the slug over from its own redirect.
      const back = edit(moved.topic, { slug: t.slug }, "topic.moved");
      expect(await s.topics.update(back)).toBe("ok");
      expect(await s.topics.resolve(ws, t.slug)).toEqual({ topic: back.topic, redirectedFrom: null });
      expect(await s.topics.resolve(ws, moved.topic.slug)).toEqual({ topic: back.topic, redirectedFrom: moved.topic.slug });
      // A new topic may take a slug that is only a redirect.
      const fresh = await add(ws, { slug: moved.topic.slug });
      expect(await s.topics.resolve(ws, moved.topic.slug)).toEqual({ topic: fresh, redirectedFrom: null });
    });

    test("TopicStore.resolveMany() resolves live and old slugs at once; missing ones and other workspaces' are absent", async () => {
      const ws = await workspace();
      const other = await workspace();
      const plain = await add(ws);
      const t = await add(ws);
      const moved = edit(t, { slug: unique("moved") }, "topic.moved");
      expect(await s.topics.update(moved)).toBe("ok");
      const foreign = await add(other);
      const foreignMoved = edit(foreign, { slug: unique("foreign-moved") }, "topic.moved");
      expect(await s.topics.update(foreignMoved)).toBe("ok");

      const asked = [plain.slug, t.slug, "no-such-slug", moved.topic.slug, plain.slug, foreign.slug, foreignMoved.topic.slug];
      const found = await s.topics.resolveMany(ws, asked);
      // Keyed by the slug asked, each distinct slug once; what the same slug resolve() answers.
      expect([...found.keys()].sort()).toEqual([plain.slug, t.slug, moved.topic.slug].sort());
      expect(found.get(plain.slug)).toEqual({ topic: plain, redirectedFrom: null });
      expect(found.get(t.slug)).toEqual({ topic: moved.topic, redirectedFrom: t.slug });
      expect(found.get(moved.topic.slug)).toEqual({ topic: moved.topic, redirectedFrom: null });
      for (const slug of new Set(asked)) expect(found.get(slug) ?? null).toEqual(await s.topics.resolve(ws, slug));

      // A slug that is a redirect and then taken by a new topic names the new topic.
      const fresh = await add(ws, { slug: t.slug });
      expect((await s.topics.resolveMany(ws, [t.slug])).get(t.slug)).toEqual({ topic: fresh, redirectedFrom: null });
      expect((await s.topics.resolveMany(ws, [])).size).toBe(0);
      expect((await s.topics.resolveMany(other, [plain.slug, t.slug])).size).toBe(0);
    });

    test("TopicStore.list() hides archived topics unless asked, and filters", async () => {
      const ws = await workspace();
      const repo = uuidv7();
      const a = await add(ws, { tags: ["api"], kind: "doc", source_url: "https://x.test/a" });
      const b = await add(ws, { tags: ["ops"], origin: "auto", repo_id: repo, status: "proposed" });
      const c = await add(ws, { tags: ["api", "ops"], status: "archived" });
      const ids = async (f: Parameters<Stores["topics"]["list"]>[1]) => (await s.topics.list(ws, f, page)).items.map((x) => x.id).sort();
      expect(await ids({})).toEqual([a.id, b.id].sort());
      expect(await ids({ status: "archived" })).toEqual([c.id]);
      expect(await ids({ status: "proposed" })).toEqual([b.id]);
      expect(await ids({ tags: ["api"] })).toEqual([a.id]);
      expect(await ids({ tags: ["api", "ops"] })).toEqual([a.id, b.id].sort());
      expect(await ids({ tags: ["nope"] })).toEqual([]);
      expect(await ids({ kind: "doc" })).toEqual([a.id]);
      expect(await ids({ kind: "note" })).toEqual([b.id]);
      expect(await ids({ origin: "auto" })).toEqual([b.id]);
      expect(await ids({ origin: "manual" })).toEqual([a.id]);
      expect(await ids({ repoId: repo })).toEqual([b.id]);
      expect(await ids({ hasExternal: true })).toEqual([a.id]);
      expect(await ids({ hasExternal: false })).toEqual([b.id]);
    });

    test("TopicStore.list() filters by drift, owner and anchors; getMany() reads several at once", async () => {
      const ws = await workspace();
      const drifted = await add(ws, { drift: { commit: null, files: ["a"], at: stamp() }, anchors: ["src/**"] });
      const owned = await add(ws, { owner_id: uuidv7() });
      const plain = await add(ws);
      const ids = async (f: Parameters<Stores["topics"]["list"]>[1]) => (await s.topics.list(ws, f, page)).items.map((x) => x.id).sort();
      expect(await ids({ drifted: true })).toEqual([drifted.id]);
      expect(await ids({ drifted: false })).toEqual([owned.id, plain.id].sort());
      expect(await ids({ hasOwner: true })).toEqual([owned.id]);
      expect(await ids({ hasOwner: false })).toEqual([drifted.id, plain.id].sort());
      expect(await ids({ hasAnchors: true })).toEqual([drifted.id]);
      expect(await ids({ hasAnchors: false })).toEqual([owned.id, plain.id].sort());
      const many = await s.topics.getMany(ws, [plain.id, owned.id, uuidv7(), plain.id]);
      expect(many.map((t) => t.id).sort()).toEqual([owned.id, plain.id].sort());
      expect(await s.topics.getMany(await workspace(), [plain.id])).toEqual([]);
    });

    test("TopicStore.list() by one tag counts the live topics carrying it through every kind of change", async () => {
      const ws = await workspace();
      const total = async (tag: string) => (await s.topics.list(ws, { tags: [tag] }, { limit: 1, offset: 0 })).total;
      const a = await add(ws, { tags: ["ops"] });
      const b = await add(ws, { tags: ["ops", "db"] });
      expect(await total("ops")).toBe(2);
      const archived = edit(a, { status: "archived" }, "topic.archived");
      await s.topics.update(archived);
      expect(await total("ops")).toBe(1);
      await s.topics.update(edit(archived.topic, { status: "draft" }, "topic.restored"));
      expect(await total("ops")).toBe(2);
      const retag = (from: string, to: string | null) => (t: Topic) =>
        edit(t, { tags: [...new Set([...t.tags.filter((x) => x !== from), ...(to ? [to] : [])])].sort() }, "topic.retagged");
      await s.tags.retag(ws, "db", "ops", retag("db", "ops"));
      expect(await total("ops")).toBe(2);
      const gone = { ...b, version: 99 };
      await s.topics.delete(ws, b.id, null, { ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null });
      expect(await total("ops")).toBe(1);
      expect(await total("nope")).toBe(0);
      expect((await s.topics.list(ws, { tags: ["ops"], status: "draft" }, page)).total).toBe(1);
    });

    test("TopicStore.list() by one tag pages the live topics carrying it in list order through every kind of write", async () => {
      const ws = await workspace();
      const names = ["a", "b", "c", "d"];
      // The reference: the whole list (no filter) in list order, kept to the tag's holders.
      const check = async (step: string) => {
        const all = (await s.topics.list(ws, {}, { limit: 500, offset: 0 })).items;
        for (const tag of names) {
          const want = all.filter((t) => t.tags.includes(tag)).map((t) => `${t.id}@${t.version}`);
          const got = await s.topics.list(ws, { tags: [tag] }, page);
          expect({ step, tag, ids: got.items.map((t) => `${t.id}@${t.version}`), total: got.total })
            .toEqual({ step, tag, ids: want, total: want.length });
          const second = await s.topics.list(ws, { tags: [tag] }, { limit: 2, offset: 1 });
          expect({ step, tag, ids: second.items.map((t) => `${t.id}@${t.version}`) }).toEqual({ step, tag, ids: want.slice(1, 3) });
        }
      };
      const at = stamp();
      const t1 = await add(ws, { tags: ["a", "b"] });
      const t2 = await add(ws, { tags: ["a"], status: "reviewed" });
      const t3 = await add(ws, { tags: ["b", "c"], status: "proposed" });
      // Two at the same instant: the id breaks the tie.
      const t4 = await add(ws, { tags: ["a", "c"], updated_at: at, created_at: at });
      const t5 = await add(ws, { tags: ["a", "c"], updated_at: at, created_at: at });
      const t6 = await add(ws, { tags: ["c"], drift: { commit: "abc", files: ["a.ts"], at: stamp() } });
      await add(ws, { tags: ["a"], status: "archived" });
      await check("inserted");
      const t1b = edit(t1, { tags: ["a", "c"] });
      await s.topics.update(t1b);
      const t2b = edit(t2, { status: "archived" }, "topic.archived");
      await s.topics.update(t2b);
      await check("retagged and archived");
      await s.topics.update(edit(t2b.topic, { status: "draft" }, "topic.restored"));
      const t3b = edit(t3, { status: "reviewed" }, "topic.approved");
      await s.topics.update(t3b);
      const t4b = edit(t4, { drift: { commit: "def", files: ["b.ts"], at: stamp() } });
      await s.topics.update(t4b);
      await s.topics.update(edit(t6, { drift: null }));
      await check("restored, approved, drifted, drift cleared");
      const source = edit(t5, { status: "archived", merged_into: t1.id }, "topic.merged_into");
      expect(await s.topics.merge(source, edit(t1b.topic, { merged_from: [t5.id], tags: ["a", "b", "c"] }, "topic.merged"))).toBe("ok");
      const gone = { ...t3b.topic, version: t3b.topic.version + 1 };
      await s.topics.delete(ws, t3.id, null, { ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null });
      await check("merged and deleted");
      const retag = (from: string, to: string | null) => (t: Topic) =>
        edit(t, { tags: [...new Set([...t.tags.filter((x) => x !== from), ...(to ? [to] : [])])].sort() }, "topic.retagged");
      await s.tags.retag(ws, "c", "d", retag("c", "d"));
      await s.tags.retag(ws, "b", "a", retag("b", "a"));
      await add(ws, { tags: ["b", "d"] });
      await check("renamed, merged tags, inserted again");
      expect((await s.topics.list(ws, { tags: ["c"] }, page)).total).toBe(0);
    });

    test("TopicStore.list() with bodyChars reads each body's start, at least that many characters of it", async () => {
      const ws = await workspace();
      const long = `${"word ".repeat(200)}end`;
      const astral = "𝄞".repeat(400);
      await add(ws, { tags: ["x"], body: long });
      await add(ws, { tags: ["x"], body: astral });
      await add(ws, { tags: ["x"], body: "short" });
      for (const bodyChars of [0, 100, 281, 500]) {
        for (const filter of [{ tags: ["x"] }, {}]) {
          for (const t of (await s.topics.list(ws, filter, page, { bodyChars })).items) {
            const full = (await s.topics.get(ws, t.id))!.body;
            expect(full.startsWith(t.body)).toBe(true);
            expect(t.body.length).toBeGreaterThanOrEqual(Math.min(bodyChars, full.length));
          }
        }
      }
    });

    test("TopicStore.list() filters stale reviewed topics by their approval instant", async () => {
      const ws = await workspace();
      const gov = (at: string) => ({ authoritative: true, approved_by: null, approved_at: at });
      const old = await add(ws, { status: "reviewed", governance: gov("2025-01-01T00:00:00.000Z") });
      const fresh = await add(ws, { status: "reviewed", governance: gov("2026-06-01T00:00:00.000Z") });
      const draft = await add(ws);
      const before = "2026-01-01T00:00:00.000Z";
      const ids = async (is: boolean) => (await s.topics.list(ws, { stale: { is, before } }, page)).items.map((x) => x.id).sort();
      expect(await ids(true)).toEqual([old.id]);
      expect(await ids(false)).toEqual([fresh.id, draft.id].sort());
    });

    test("TopicStore.list() orders drifted first, then by trust, then most recently updated, and pages", async () => {
      const ws = await workspace();
      const draftOld = await add(ws);
      const reviewed = await add(ws, { status: "reviewed" });
      const draftNew = await add(ws);
      const proposed = await add(ws, { status: "proposed" });
      const drifted = await add(ws, { drift: { commit: "abc", files: ["a.ts"], at: stamp() } });
      const all = await s.topics.list(ws, {}, page);
      expect(all.items.map((x) => x.id)).toEqual([drifted.id, reviewed.id, proposed.id, draftNew.id, draftOld.id]);
      expect(all.total).toBe(5);
      const second = await s.topics.list(ws, {}, { limit: 2, offset: 2 });
      expect(second.items.map((x) => x.id)).toEqual([proposed.id, draftNew.id]);
      expect(second.total).toBe(5);
      expect(await s.topics.list(ws, {}, { limit: 2, offset: 10 })).toEqual({ items: [], total: 5 });
    });

    test("TopicStore.search() finds topics holding every term and ranks title over tags over body", async () => {
      const ws = await workspace();
      const inBody = await add(ws, { title: "Release notes", body: "How we deploy the billing service", status: "proposed" });
      const inTitle = await add(ws, { title: "Deploy billing", body: "steps", status: "proposed" });
      const inTags = await add(ws, { title: "Runbook", tags: ["deploy", "billing"], status: "proposed" });
      await add(ws, { title: "Deploy only", body: "nothing else", status: "proposed" });
      const r = await s.topics.search(ws, { terms: ["deploy", "billing"], statuses: ["proposed", "reviewed"], limit: 10 });
      expect(r.items.map((x) => x.id)).toEqual([inTitle.id, inTags.id, inBody.id]);
      expect(r.total).toBe(3);
      expect(r.items[0]).toEqual(inTitle);
      const top = await s.topics.search(ws, { terms: ["deploy", "billing"], statuses: ["proposed", "reviewed"], limit: 1 });
      expect(top).toEqual({ items: [inTitle], total: 3, capped: false });
      const capped = await s.topics.search(ws, { terms: ["deploy", "billing"], statuses: ["proposed", "reviewed"], limit: 2, countCap: 2 });
      expect(capped).toEqual({ items: [inTitle, inTags], total: 2, capped: true });
      const excerpt = await s.topics.search(ws, { terms: ["deploy"], statuses: ["proposed"], limit: 10, bodyChars: 3 });
      expect(excerpt.items.find((x) => x.id === inBody.id)?.body.startsWith("How")).toBe(true);
    });

    test("TopicStore.search() ranks reviewed over proposed over draft at equal relevance, and keeps to its statuses", async () => {
      const ws = await workspace();
      const draft = await add(ws, { title: "Kafka consumer lag" });
      const reviewed = await add(ws, { title: "Kafka partitions", status: "reviewed" });
      const proposed = await add(ws, { title: "Kafka retention", status: "proposed" });
      await add(ws, { title: "Kafka archive", status: "archived" });
      const all = await s.topics.search(ws, { terms: ["kafka"], statuses: ["draft", "proposed", "reviewed"], limit: 10 });
      expect(all.items.map((x) => x.id)).toEqual([reviewed.id, proposed.id, draft.id]);
      const noNotes = await s.topics.search(ws, { terms: ["kafka"], statuses: ["proposed", "reviewed"], limit: 10 });
      expect(noNotes.items.map((x) => x.id)).toEqual([reviewed.id, proposed.id]);
    });

    test("TopicStore.search() matches whole folded words, and filters by tags and staleness", async () => {
      const ws = await workspace();
      const cafe = await add(ws, { title: "Café opening hours", tags: ["ops"], status: "proposed" });
      const tagged = await add(ws, { title: "Cafe menu", tags: ["food"], status: "proposed" });
      const q = { statuses: ["proposed" as const], limit: 10 };
      expect((await s.topics.search(ws, { ...q, terms: ["cafe"] })).items.map((x) => x.id).sort()).toEqual([cafe.id, tagged.id].sort());
      expect((await s.topics.search(ws, { ...q, terms: ["caf"] })).total).toBe(0);
      expect((await s.topics.search(ws, { ...q, terms: ["cafe"], tags: ["food"] })).items.map((x) => x.id)).toEqual([tagged.id]);
      expect((await s.topics.search(ws, { ...q, terms: ["cafe"], stale: { is: true, before: stamp() } })).total).toBe(0);
    });

    test("TopicStore.search() ranks a seeded corpus as core's scoring does, through edits, archives, deletes and retags", async () => {
      const ws = await workspace();
      // A small vocabulary drawn with a skew: some words are in most topics, in titles, tags and
      // bodies alike, so pages fill from title hits, from tag hits and from body-only hits.
      const words = ["alpha", "beta", "gamma", "delta", "kappa", "sigma", "omega", "zeta", "theta"];
      let seed = 20_240_917;
      const rnd = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
      const some = (min: number, max: number) =>
        Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => words[Math.floor(rnd() ** 2 * words.length)]!);
      const statuses = ["draft", "proposed", "reviewed", "reviewed", "archived"] as const;
      const status = () => statuses[Math.floor(rnd() * statuses.length)]!;
      const ids: string[] = [];
      const written = new Map<string, Topic>();
      for (let i = 0; i < 90; i++) {
        const tags = [...new Set(some(0, 2).map((w, j) => (j === 1 ? `${w}-ops` : w)))].sort();
        const t = await add(ws, { title: some(1, 3).join(" "), tags, body: some(2, 10).join(" "), status: status() });
        ids.push(t.id);
        written.set(t.id, t);
      }
      // Later versions: edits (title, tags, body, status), deletions, and a retag of many topics.
      for (let i = 0; i < 30; i++) {
        const alive = [...written.keys()];
        const cur = written.get(alive[Math.floor(rnd() * alive.length)]!)!;
        if (i % 6 === 5) {
          const gone = { ...cur, version: cur.version + 1 };
          const event = { ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null };
          expect(await s.topics.delete(ws, cur.id, cur.version, event)).toBe("ok");
          written.delete(cur.id);
          continue;
        }
        const w = edit(cur, {
          title: some(1, 3).join(" "),
          tags: [...new Set(some(0, 2))].sort(),
          body: some(2, 10).join(" "),
          status: status(),
        });
        expect(await s.topics.update(w)).toBe("ok");
        written.set(cur.id, w.topic);
      }
      const rewrite = (t: Topic) =>
        edit(t, { tags: [...new Set([...t.tags.filter((x) => x !== "beta"), "omega-ops"])].sort() }, "topic.retagged");
      expect(await s.tags.retag(ws, "beta", "omega-ops", rewrite)).toBeGreaterThan(0);
      const stored = await s.topics.getMany(ws, ids);
      expect(stored.length).toBe(written.size);

      // core's relevance over what the store holds: the reference every backend must answer.
      const reference = (terms: string[], statuses: Topic["status"][]) =>
        stored
          .filter((t) => statuses.includes(t.status))
          .map((t) => {
            const f = topicTerms(t);
            return { ...t, score: scoreTopic({ title: new Set(f.title), tags: new Set(f.tags), body: new Set(f.body) }, terms) };
          })
          .filter((t): t is Topic & { score: number } => t.score !== null)
          .sort(compareRanked)
          .map((t) => t.id);
      const queries = [...words.map((w) => [w]), ["ops"], ["nowhere"], ["alpha", "beta"], ["gamma", "ops"], ["zeta", "theta", "alpha"]];
      const statusSets: Topic["status"][][] = [["proposed", "reviewed"], ["draft", "proposed", "reviewed"], ["reviewed"], [
        "draft",
        "reviewed",
      ]];
      for (const terms of queries) {
        for (const statuses of statusSets) {
          const expected = reference(terms, statuses);
          for (const limit of [3, 12, 200]) {
            const exact = await s.topics.search(ws, { terms, statuses, limit });
            expect({ terms, statuses, limit, ids: exact.items.map((t) => t.id), total: exact.total })
              .toEqual({ terms, statuses, limit, ids: expected.slice(0, limit), total: expected.length });
            if (limit !== 12) continue;
            const counted = await s.topics.search(ws, { terms, statuses, limit, countCap: 1_000 });
            expect([counted.total, counted.capped ?? false]).toEqual([expected.length, false]);
            const excerpts = await s.topics.search(ws, { terms, statuses, limit, countCap: 0, bodyChars: 5 });
            // A store may read more of the body than asked; never less.
            expect(excerpts.items.map((t) => [t.id, t.body.slice(0, 5)])).toEqual(
              expected.slice(0, limit).map((id) => [id, stored.find((t) => t.id === id)!.body.slice(0, 5)]),
            );
          }
        }
      }
    });

    test("TopicStore.anchoredAt() finds topics by the bases of their anchors, per repo, in list order", async () => {
      const ws = await workspace();
      const [r1, r2] = [uuidv7(), uuidv7()];
      const billing = await add(ws, { repo_id: r1, anchors: ["src/billing/**/*.ts"], status: "reviewed" });
      const anywhere = await add(ws, { repo_id: r1, anchors: ["**/*.md", "docs/intro.md"] });
      const exact = await add(ws, { repo_id: r1, anchors: ["src/billing/invoice.ts"], status: "proposed" });
      await add(ws, { repo_id: r2, anchors: ["src/billing/*.ts"] });
      await add(ws, { repo_id: r1, anchors: ["src/billing/**"], status: "archived" });
      const bases = ["", "src", "src/billing", "src/billing/invoice.ts"];
      expect((await s.topics.anchoredAt(ws, r1, bases, 10)).map((t) => t.id)).toEqual([billing.id, exact.id, anywhere.id]);
      expect((await s.topics.anchoredAt(ws, r1, ["docs/intro.md"], 10)).map((t) => t.id)).toEqual([anywhere.id]);
      expect((await s.topics.anchoredAt(ws, null, ["src/billing"], 10)).length).toBe(2);
      expect((await s.topics.anchoredAt(ws, r1, bases, 1)).map((t) => t.id)).toEqual([billing.id]);
      expect(await s.topics.anchoredAt(ws, r1, ["lib"], 10)).toEqual([]);
      const moved = edit(billing, { anchors: ["lib/**"] });
      await s.topics.update(moved);
      expect((await s.topics.anchoredAt(ws, r1, ["lib"], 10)).map((t) => t.id)).toEqual([billing.id]);
      expect((await s.topics.anchoredAt(ws, r1, ["src/billing"], 10)).map((t) => t.id)).toEqual([]);
    });

    test("TopicStore.history() and timeline() record each change, newest first", async () => {
      const ws = await workspace();
      const repo = uuidv7();
      const t = await add(ws, { repo_id: repo });
      const u = edit(t, { body: "v2" });
      await s.topics.update(u);
      const p = edit(u.topic, { status: "proposed" }, "topic.proposed");
      await s.topics.update(p);
      await add(ws);
      const history = await s.topics.history(ws, t.id, 10);
      expect(history.map((e) => [e.version, e.type, e.snapshot?.body])).toEqual([
        [3, "topic.proposed", "v2"],
        [2, "topic.updated", "v2"],
        [1, "topic.created", ""],
      ]);
      expect((await s.topics.history(ws, t.id, 2)).map((e) => e.version)).toEqual([3, 2]);
      const tl = await s.topics.timeline(ws, {}, page);
      expect(tl.total).toBe(4);
      expect(tl.items.every((e) => e.snapshot === null)).toBe(true);
      expect(tl.items.map((e) => e.type)).toEqual(["topic.created", "topic.proposed", "topic.updated", "topic.created"]);
      expect((await s.topics.timeline(ws, { type: "topic.proposed" }, page)).items.map((e) => e.id)).toEqual([p.event.id]);
      expect((await s.topics.timeline(ws, { repoId: repo }, page)).total).toBe(3);
      expect((await s.topics.timeline(ws, {}, { limit: 1, offset: 1 })).items.map((e) => e.id)).toEqual([p.event.id]);
    });

    test("TopicStore.merge() archives the source and updates the target together, or neither", async () => {
      const ws = await workspace();
      const source = await add(ws, { body: "S" });
      const target = await add(ws, { body: "T" });
      const stale = edit(target, { body: "T+S" });
      await s.topics.update(edit(target, { title: "moved on" }));
      const archived = edit(source, { status: "archived", merged_into: target.id }, "topic.merged_into");
      expect(await s.topics.merge(archived, stale)).toBe("version_conflict");
      expect(await s.topics.get(ws, source.id)).toEqual(source);
      const current = (await s.topics.get(ws, target.id))!;
      const merged = edit(current, { body: "T+S", merged_from: [source.id] }, "topic.merged");
      expect(await s.topics.merge(archived, merged)).toBe("ok");
      expect(await s.topics.get(ws, source.id)).toEqual(archived.topic);
      expect(await s.topics.get(ws, target.id)).toEqual(merged.topic);
    });

    test("TopicStore.delete() removes the topic, its redirects and its text, and records the deletion", async () => {
      const ws = await workspace();
      const t = await add(ws, { body: "secret" });
      const moved = edit(t, { slug: unique("moved") }, "topic.moved");
      await s.topics.update(moved);
      const gone = { ...moved.topic, version: 3 };
      const event = { ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null };
      expect(await s.topics.delete(ws, t.id, 1, event)).toBe("version_conflict");
      expect(await s.topics.delete(ws, t.id, 2, event)).toBe("ok");
      expect(await s.topics.get(ws, t.id)).toBeNull();
      expect(await s.topics.resolve(ws, t.slug)).toBeNull();
      expect(await s.topics.resolve(ws, moved.topic.slug)).toBeNull();
      expect(await s.topics.history(ws, t.id, 10)).toEqual([]);
      const tl = await s.topics.timeline(ws, {}, page);
      expect(tl.items.map((e) => [e.type, e.snapshot])).toEqual([
        ["topic.deleted", null],
        ["topic.moved", null],
        ["topic.created", null],
      ]);
      expect(await s.topics.delete(ws, t.id, null, event)).toBe("not_found");
    });

    test("TagStore: topic writes register tags; list counts topics, most-used first", async () => {
      const ws = await workspace();
      await add(ws, { tags: ["api", "ops"] });
      await add(ws, { tags: ["api"] });
      await add(ws, { tags: ["api", "zeta"], status: "archived" });
      const r = await s.tags.upsert({ workspace_id: ws, name: "lonely", description: "unused", created_at: stamp(), updated_at: stamp() });
      expect(r.created).toBe(true);
      const list = await s.tags.list(ws, page);
      expect(list.total).toBe(4);
      expect(list.items.map((t) => [t.name, t.topic_count])).toEqual([["api", 3], ["ops", 1], ["zeta", 1], ["lonely", 0]]);
      expect((await s.tags.list(ws, { limit: 1, offset: 1 })).items.map((t) => t.name)).toEqual(["ops"]);
      expect(await s.tags.get(ws, "ops")).toMatchObject({ name: "ops", description: null, topic_count: 1 });
    });

    test("TagStore.upsert() is idempotent and merges a description; describe() sets or clears it", async () => {
      const ws = await workspace();
      const tag = { workspace_id: ws, name: "infra", description: null, created_at: stamp(), updated_at: stamp() };
      expect((await s.tags.upsert(tag)).created).toBe(true);
      const again = await s.tags.upsert({ ...tag, description: "Servers" });
      expect(again).toMatchObject({ created: false, tag: { name: "infra", description: "Servers" } });
      expect((await s.tags.upsert(tag)).tag.description).toBe("Servers");
      expect((await s.tags.list(ws, page)).total).toBe(1);
      expect((await s.tags.describe(ws, "infra", null, stamp()))?.description).toBeNull();
      expect(await s.tags.describe(ws, "nope", "x", stamp())).toBeNull();
    });

    test("TagStore.retag() renames a tag on every topic, each as a new version, and merges onto an existing name", async () => {
      const ws = await workspace();
      const a = await add(ws, { tags: ["ops", "webapp"] });
      const b = await add(ws, { tags: ["web-app"] });
      const c = await add(ws, { tags: ["other"] });
      await s.tags.describe(ws, "webapp", "The web app", stamp());
      const rewrite = (from: string, to: string | null) => (t: Topic) =>
        edit(t, { tags: [...new Set([...t.tags.filter((x) => x !== from), ...(to ? [to] : [])])].sort() }, "topic.retagged");
      expect(await s.tags.retag(ws, "webapp", "web-app", rewrite("webapp", "web-app"))).toBe(1);
      expect(await s.topics.get(ws, a.id)).toMatchObject({ tags: ["ops", "web-app"], version: 2 });
      expect(await s.topics.get(ws, b.id)).toMatchObject({ tags: ["web-app"], version: 1 });
      expect(await s.tags.get(ws, "webapp")).toBeNull();
      expect(await s.tags.get(ws, "web-app")).toMatchObject({ topic_count: 2, description: "The web app" });
      expect(await s.tags.retag(ws, "webapp", "x", rewrite("webapp", "x"))).toBeNull();
      expect(await s.tags.retag(ws, "ops", "site-ops", rewrite("ops", "site-ops"))).toBe(1);
      expect(await s.tags.get(ws, "site-ops")).toMatchObject({ topic_count: 1 });
      expect(await s.tags.retag(ws, "web-app", null, rewrite("web-app", null))).toBe(2);
      expect(await s.topics.get(ws, b.id)).toMatchObject({ tags: [], version: 2 });
      expect(await s.topics.get(ws, c.id)).toMatchObject({ tags: ["other"], version: 1 });
      expect((await s.tags.list(ws, page)).items.map((t) => t.name).sort()).toEqual(["other", "site-ops"]);
      expect((await s.topics.history(ws, a.id, 10)).map((e) => [e.type, e.version])).toEqual([
        ["topic.retagged", 4],
        ["topic.retagged", 3],
        ["topic.retagged", 2],
        ["topic.created", 1],
      ]);
    });

    test("RetrievalLedger remembers what each session was given, per topic, within the window", async () => {
      const ws = await workspace();
      const [a, b, c] = [uuidv7(), uuidv7(), uuidv7()];
      const t0 = "2026-01-01T00:00:00.000Z";
      const t1 = "2026-01-02T00:00:00.000Z";
      await s.retrievals.record(ws, "run-1", [{ topic_id: a, version: 1 }, { topic_id: b, version: 4 }], t0, "2025-12-01T00:00:00.000Z");
      expect(await s.retrievals.delivered(ws, "run-1", [a, b, c], t0)).toEqual(new Map([[a, 1], [b, 4]]));
      expect((await s.retrievals.delivered(ws, "run-2", [a, b], t0)).size).toBe(0);
      expect((await s.retrievals.delivered(await workspace(), "run-1", [a], t0)).size).toBe(0);
      await s.retrievals.record(ws, "run-1", [{ topic_id: a, version: 2 }], t1, "2025-12-01T00:00:00.000Z");
      expect(await s.retrievals.delivered(ws, "run-1", [a, b], t1)).toEqual(new Map([[a, 2]]));
      // Recording forgets the workspace's deliveries older than its window.
      await s.retrievals.record(ws, "run-2", [], t1, t1);
      expect(await s.retrievals.delivered(ws, "run-1", [a, b], "2000-01-01T00:00:00.000Z")).toEqual(new Map([[a, 2]]));
    });

    test("WorkspaceStore.delete() removes the workspace's retrieval deliveries", async () => {
      const ws = await workspace();
      const a = uuidv7();
      const t0 = "2026-01-01T00:00:00.000Z";
      await s.retrievals.record(ws, "run-1", [{ topic_id: a, version: 1 }], t0, "2025-12-01T00:00:00.000Z");
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect((await s.retrievals.delivered(ws, "run-1", [a], "2000-01-01T00:00:00.000Z")).size).toBe(0);
    });

    test("WorkspaceStore.delete() removes the workspace's topics, events and tags", async () => {
      const b = await bootstrapped(s);
      const t = await add(b.workspace.id, { tags: ["gone"] });
      expect(await s.workspaces.delete(b.workspace.id)).toBe(true);
      expect(await s.topics.get(b.workspace.id, t.id)).toBeNull();
      expect((await s.topics.timeline(b.workspace.id, {}, page)).total).toBe(0);
      expect(await s.tags.get(b.workspace.id, "gone")).toBeNull();
    });
  });
}
