import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import type { Proposal, Relation, Topic } from "../../../core/topics/model.ts";
import type { TopicWrite } from "../../../core/topics/ports.ts";
import { changeTopic, topicEvent } from "../../../core/topics/topic-change.ts";
import { stamp, topicFixture, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

interface Seeded {
  moved: Topic;
  oldSlug: string;
  plain: Topic;
  archived: Topic;
  proposal: Proposal;
  relation: Relation;
}

const seeded = new Map<string, Seeded>();
const created = (t: Topic): TopicWrite => ({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
const page = { offset: 0, limit: 50 };

async function insert(s: Stores, t: Topic): Promise<Topic> {
  if ((await s.topics.insert(created(t))) !== "ok") throw new Error("seed: topic insert refused");
  return t;
}

/**
 * Topics: a described tag (Unicode), a topic moved to a new slug (a redirect, two events of
 * history), a reviewed one, an archived one, a proposal and a relation. The copy must answer the
 * same search, tag list and counts, tag page, slug lookups (the old slug redirects), history,
 * proposal and relations, and the graph.
 */
export const topicsSeeder: TransferSeeder = {
  module: "topics",
  async seed(s, b) {
    const ws = b.workspace.id;
    await s.tags.upsert({ workspace_id: ws, name: "ünïcode", description: "Zeichen — 字", created_at: stamp(), updated_at: stamp() });
    const first = await insert(
      s,
      topicFixture(ws, {
        title: "Transfer zebra handbook",
        body: "How the quokka moves between stores.\n\nÜnïcödé 🦓 body.",
        tags: ["api", "ünïcode"],
        author_id: b.owner.identity.id,
        source_url: "https://example.com/a?b=c",
      }),
    );
    const oldSlug = first.slug;
    const move = changeTopic(null, first, { slug: unique("moved") }, "topic.moved", new Date(stamp()), { from: oldSlug });
    if ((await s.topics.update(move)) !== "ok") throw new Error("seed: move refused");
    const at = stamp();
    const plain = await insert(
      s,
      topicFixture(ws, {
        title: "Reviewed zebra",
        tags: ["api"],
        status: "reviewed",
        governance: { authoritative: true, approved_by: b.owner.identity.id, approved_at: at },
        approved_via: "human",
        drift: { commit: null, files: ["src/a.ts"], at },
        merged_from: [uuidv7()],
      }),
    );
    const archived = await insert(s, topicFixture(ws, { title: "Old zebra", tags: ["api"], status: "archived" }));
    const proposal: Proposal = {
      id: uuidv7(),
      workspace_id: ws,
      topic_id: plain.id,
      summary: "Retitle ✍",
      patch: { title: "Better", area_id: null, tags: ["a", "b"] },
      base_version: 1,
      status: "open",
      author_id: null,
      via: "agent",
      created_at: stamp(),
      decided_at: null,
      decided_by: null,
      merged_version: null,
    };
    await s.proposals.insert(proposal);
    const relation: Relation = {
      id: uuidv7(),
      workspace_id: ws,
      from_topic_id: move.topic.id,
      to_topic_id: plain.id,
      type: "depends_on",
      created_at: stamp(),
      created_by: b.owner.identity.id,
    };
    if ((await s.relations.insert(relation)) !== "ok") throw new Error("seed: relation refused");
    seeded.set(ws, { moved: move.topic, oldSlug, plain, archived, proposal, relation });
  },
  async verify(source, target, b, expect) {
    const ws = b.workspace.id;
    const x = seeded.get(ws)!;
    for (const s of [source, target]) {
      expect(await s.topics.resolve(ws, x.oldSlug)).toEqual({ topic: x.moved, redirectedFrom: x.oldSlug });
      expect(await s.topics.get(ws, x.archived.id)).toEqual(x.archived);
    }
    const same = async <T>(read: (s: Stores) => Promise<T>) => expect(await read(target)).toEqual(await read(source));
    await same((s) => s.topics.resolve(ws, x.moved.slug));
    await same((s) => s.topics.search(ws, { terms: ["zebra"], statuses: ["draft", "proposed", "reviewed"], limit: 10 }));
    await same((s) => s.topics.search(ws, { terms: ["quokka"], statuses: ["draft", "proposed", "reviewed"], limit: 10 }));
    await same((s) => s.tags.list(ws, page));
    await same((s) => s.topics.list(ws, { tags: ["api"] }, page));
    await same((s) => s.topics.list(ws, { tags: ["ünïcode"] }, page));
    await same((s) => s.topics.list(ws, { status: "archived" }, page));
    await same((s) => s.topics.history(ws, x.moved.id, 10));
    await same((s) => s.topics.timeline(ws, {}, page));
    await same((s) => s.proposals.get(ws, x.proposal.id));
    await same((s) => s.proposals.list(ws, {}, "newest", page));
    await same((s) => s.relations.ofTopics(ws, [x.plain.id], 10));
    await same((s) => s.relations.allNodes(ws, true, 10));
    expect((await target.topics.search(ws, { terms: ["zebra"], statuses: ["draft", "proposed", "reviewed"], limit: 10 })).total).toBe(2);
    expect((await target.tags.get(ws, "api"))?.topic_count).toBe(3);
    expect((await target.relations.list(ws, 10)).map((r) => r.id)).toEqual([x.relation.id]);
  },
};
