import * as bunTest from "bun:test";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Db, MongoClient } from "mongodb";
import { createMongoStores, ensureIndexes, openMongoStores } from "../../adapters/mongo/mod.ts";
import { apiKeyDoc } from "../../adapters/mongo/access/documents.ts";
import { identityDoc, memberDoc } from "../../adapters/mongo/workspaces/documents.ts";
import { topicEventDoc } from "../../adapters/mongo/topics/documents.ts";
import { collectionDoc, entityDoc, recordChangeDoc } from "../../adapters/mongo/collections/documents.ts";
import type { Collection, CollectionRecord, Entity, RecordChange } from "../../core/collections/model.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { RadarRun } from "../../core/radar/model.ts";
import { radarCollections } from "../../adapters/mongo/radar/collections.ts";
import { MongoContactUnlockStore } from "../../adapters/mongo/contacts/contact-unlock-store.ts";
import { contactCollections } from "../../adapters/mongo/contacts/collections.ts";
import { MongoRunStore } from "../../adapters/mongo/radar/run-store.ts";
import { mongoCollectionBundle } from "../../adapters/mongo/collections/bundle.ts";
import { collectionCollections } from "../../adapters/mongo/collections/collections.ts";
import { creditCollections } from "../../adapters/mongo/credits/collections.ts";
import { MongoCreditLedgerStore } from "../../adapters/mongo/credits/credit-ledger-store.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import {
  apiKey,
  bundle,
  collectionFixture,
  identity,
  newMember,
  recordChangeFixture,
  recordFixture,
  stamp,
  topicFixture,
  unique,
} from "./fixtures.ts";
import { runStoreContracts } from "./kit/mod.ts";

// Started at load, not in a hook: the first run on a machine builds FerretDB (about 1.5 minutes),
// far beyond bun's hook timeout.
const server = await sharedMongo();

runStoreContracts("mongo", async () => openMongoStores(freshMongoDatabase(server)), { api: bunTest });

/**
 * What a crash between two writes of a port method leaves behind, written here document by
 * document as the adapter would have left it, and how readers and later calls deal with it
 * (docs/decisions/005-mongo-without-transactions.md).
 */
describe("mongo: leftovers of an interrupted write", () => {
  let client: MongoClient;
  let db: Db;
  let s: Stores;
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const page = { limit: 50, offset: 0 };

  beforeAll(async () => {
    client = new MongoClient(freshMongoDatabase(server));
    await client.connect();
    db = client.db();
    await ensureIndexes(db);
    s = createMongoStores(client, db, { settleWaitMs: 200 });
  });
  afterAll(async () => {
    await client?.close();
  });

  /** A bootstrap that stopped before its commit: pending workspace, its identity, member and key. */
  async function abandonedBootstrap(pendingSince: string) {
    const b = bundle();
    await db.collection("workspaces").insertOne({
      _id: b.workspace.id as never,
      slug: b.workspace.slug,
      name: b.workspace.name,
      plan: b.workspace.plan,
      settings: b.workspace.settings,
      created_at: b.workspace.created_at,
      updated_at: b.workspace.updated_at,
      pending_since: pendingSince,
      pending_identity: b.owner.identity.id,
    });
    await db.collection("identities").insertOne({ ...identityDoc(b.owner.identity), pending_ws: b.workspace.id } as never);
    await db.collection("members").insertOne(memberDoc(b.member) as never);
    await db.collection("api_keys").insertOne(apiKeyDoc(b.apiKey) as never);
    return b;
  }

  test("WorkspaceStore.bootstrap() cut short before its commit is invisible to readers", async () => {
    const b = await abandonedBootstrap(minutesAgo(0));
    expect(await s.workspaces.getBySlug(b.workspace.slug)).toBeNull();
    expect(await s.identities.getByEmail(b.owner.identity.email)).toBeNull();
    expect(await s.identities.getById(b.owner.identity.id)).toBeNull();
    expect(await s.apiKeys.findByHash(b.apiKey.key_hash)).toBeNull();
    // A fresh one may still commit: its slug and e-mail stay held meanwhile.
    expect(await s.workspaces.bootstrap(bundle(b.workspace.slug))).toBe("slug_taken");
    expect(await s.workspaces.bootstrap(bundle(unique("ws"), identity(b.owner.identity.email)))).toBe("email_taken");
  });

  test("WorkspaceStore.bootstrap() purges debris older than 2 minutes and takes its slug", async () => {
    const old = await abandonedBootstrap(minutesAgo(3));
    const next = bundle(old.workspace.slug, identity(old.owner.identity.email));
    expect(await s.workspaces.bootstrap(next)).toBe("ok");
    expect(await s.workspaces.getBySlug(old.workspace.slug)).toEqual(next.workspace);
    expect(await s.identities.getByEmail(old.owner.identity.email)).toEqual(next.owner.identity);
    expect(await s.apiKeys.findByHash(old.apiKey.key_hash)).toBeNull();
    expect(await db.collection("identities").countDocuments({ _id: old.owner.identity.id as never })).toBe(0);
    expect(await db.collection("members").countDocuments({ workspace_id: old.workspace.id })).toBe(0);
    expect(await db.collection("workspaces").countDocuments({ _id: old.workspace.id as never })).toBe(0);
  });

  test("WorkspaceStore.bootstrap() purges old debris that holds the e-mail of a new owner", async () => {
    const old = await abandonedBootstrap(minutesAgo(3));
    const next = bundle(unique("ws"), identity(old.owner.identity.email));
    expect(await s.workspaces.bootstrap(next)).toBe("ok");
    expect(await s.identities.getByEmail(old.owner.identity.email)).toEqual(next.owner.identity);
    expect(await db.collection("workspaces").countDocuments({ _id: old.workspace.id as never })).toBe(0);
  });

  test("WorkspaceStore.bootstrap() committed but cut short before unmarking is complete", async () => {
    const b = bundle();
    expect(await s.workspaces.bootstrap(b)).toBe("ok");
    // Put the markers back, as a crash right after the commit would have left them.
    await db.collection("workspaces").updateOne({ _id: b.workspace.id as never }, { $set: { pending_since: minutesAgo(5) } });
    await db.collection("identities").updateOne({ _id: b.owner.identity.id as never }, { $set: { pending_ws: b.workspace.id } });
    expect(await s.identities.getById(b.owner.identity.id)).toEqual(b.owner.identity);
    expect(await s.apiKeys.findByHash(b.apiKey.key_hash)).toEqual({ key: b.apiKey, workspace: b.workspace, member: b.member });
    expect(await s.workspaces.bootstrap(bundle(b.workspace.slug))).toBe("slug_taken");
    expect(await s.workspaces.bootstrap(bundle(unique("ws"), identity(b.owner.identity.email)))).toBe("email_taken");
    expect(await s.workspaces.getBySlug(b.workspace.slug)).toEqual(b.workspace);
    expect(await db.collection("workspaces").countDocuments({ _id: b.workspace.id as never, pending_since: { $exists: true } })).toBe(0);
  });

  test("MemberStore.remove() cut short after its commit: the member stops authenticating, removing again finishes", async () => {
    const b = bundle();
    await s.workspaces.bootstrap(b);
    const m = await s.members.add(identity(), newMember(b.workspace.id));
    if (m === "already_member") throw new Error("unexpected");
    const key = apiKey(b.workspace.id, m.identity_id);
    await s.apiKeys.insert(key);
    // The removal's commit (the next roster version), without the deletions that follow it.
    const [roster] = await db.collection("rosters").find({ workspace_id: b.workspace.id }).sort({ v: -1 }).limit(1).toArray();
    await db.collection("rosters").insertOne({
      _id: `${b.workspace.id}:${roster!.v + 1}` as never,
      workspace_id: b.workspace.id,
      v: roster!.v + 1,
      owner_ids: roster!.owner_ids,
      removing: [m.id],
      at: new Date().toISOString(),
    });
    expect((await s.apiKeys.findByHash(key.key_hash))?.member).toBeNull();
    expect(await s.identities.memberships(m.identity_id, 10)).toEqual([]);
    expect(await s.members.get(b.workspace.id, m.id)).toMatchObject({ id: m.id });
    expect(await s.members.remove(b.workspace.id, m.id)).toBe("ok");
    expect(await s.apiKeys.findByHash(key.key_hash)).toBeNull();
    expect(await s.members.get(b.workspace.id, m.id)).toBeNull();
    expect(await s.members.add(identity(m.email), newMember(b.workspace.id))).toMatchObject({ identity_id: m.identity_id });
  });

  test("MemberStore.setRole() promotion cut short counts as an owner and is adopted by the last-owner check", async () => {
    const b = bundle();
    await s.workspaces.bootstrap(b);
    const m = await s.members.add(identity(), newMember(b.workspace.id));
    if (m === "already_member") throw new Error("unexpected");
    // The promotion's first write (the member marked owner), without its roster commit.
    await db.collection("members").updateOne({ _id: m.id as never }, { $set: { role: "owner" } });
    const owners = async () => (await s.members.list(b.workspace.id, page)).items.filter((x) => x.role === "owner").map((x) => x.id);
    expect(await owners()).toEqual([b.member.id, m.id]);
    expect(await s.members.setRole(b.workspace.id, b.member.id, "admin", stamp())).toMatchObject({ role: "admin" });
    expect(await owners()).toEqual([m.id]);
    expect(await s.members.setRole(b.workspace.id, m.id, "member", stamp())).toBe("last_owner");
    expect(await s.members.remove(b.workspace.id, m.id)).toBe("last_owner");
  });

  test("WorkspaceStore.delete() cut short after removing the workspace: deleting again removes the rest", async () => {
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
    await db.collection("workspaces").deleteOne({ _id: b.workspace.id as never });
    expect(await s.workspaces.getBySlug(b.workspace.slug)).toBeNull();
    expect(await s.apiKeys.findByHash(b.apiKey.key_hash)).toBeNull();
    expect(await s.identities.memberships(b.owner.identity.id, 10)).toEqual([]);
    expect(await s.workspaces.delete(b.workspace.id)).toBe(false);
    expect(await s.workspaces.counts(b.workspace.id)).toEqual({ members: 0, api_keys: 0, areas: 0, repos: 0 });
    expect(await db.collection("rosters").countDocuments({ workspace_id: b.workspace.id })).toBe(0);
  });

  /** A topic inserted through the store, in a fresh workspace unless one is given. */
  async function storedTopic(over: Partial<Topic> = {}, workspaceId?: string): Promise<Topic> {
    if (workspaceId === undefined) {
      const b = bundle();
      await s.workspaces.bootstrap(b);
      workspaceId = b.workspace.id;
    }
    const t = topicFixture(workspaceId, { title: "Before", body: "old text", ...over });
    const at = t.updated_at;
    expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(at)) })).toBe("ok");
    return t;
  }
  const change = (t: Topic, patch: Partial<Topic>, type: Parameters<typeof changeTopic>[3] = "topic.updated") =>
    changeTopic(null, t, patch, type, new Date(stamp()));

  test("TopicStore.update() cut short after its event: the next write of that version rolls the topic forward, then conflicts", async () => {
    const t = await storedTopic();
    // The write's first step (its event, holding the next state), without the document replace.
    const cut = change(t, { title: "After", slug: unique("moved"), tags: ["healed"] }, "topic.moved");
    await db.collection("topic_events").insertOne(topicEventDoc(cut.event) as never);
    expect(await s.topics.get(t.workspace_id, t.id)).toEqual(t);
    // A writer that read version 1 collides with the event and heals the topic on its way out.
    expect(await s.topics.update(change(t, { title: "Late" }))).toBe("version_conflict");
    expect(await s.topics.get(t.workspace_id, t.id)).toEqual(cut.topic);
    expect(await s.topics.resolve(t.workspace_id, t.slug)).toEqual({ topic: cut.topic, redirectedFrom: t.slug });
    expect(await s.tags.get(t.workspace_id, "healed")).toMatchObject({ topic_count: 1 });
    expect((await s.topics.history(t.workspace_id, t.id, 10)).map((e) => e.version)).toEqual([2, 1]);
    // Re-read, the write goes through.
    const next = change(cut.topic, { title: "Late" });
    expect(await s.topics.update(next)).toBe("ok");
    expect(await s.topics.get(t.workspace_id, t.id)).toEqual(next.topic);
  });

  test("TopicStore.history() heals a topic whose write was cut short after its event", async () => {
    const t = await storedTopic();
    const cut = change(t, { body: "new text" });
    await db.collection("topic_events").insertOne(topicEventDoc(cut.event) as never);
    expect((await s.topics.history(t.workspace_id, t.id, 10)).map((e) => e.snapshot?.body)).toEqual(["new text", "old text"]);
    expect(await s.topics.get(t.workspace_id, t.id)).toEqual(cut.topic);
  });

  test("TopicStore.update() cut short after an event whose slug was taken since: the event is taken back", async () => {
    const t = await storedTopic();
    const other = await storedTopic({}, t.workspace_id);
    const cut = change(t, { slug: other.slug }, "topic.moved");
    await db.collection("topic_events").insertOne(topicEventDoc(cut.event) as never);
    const next = change(t, { title: "Edited" });
    expect(await s.topics.update(next)).toBe("ok");
    expect(await s.topics.get(t.workspace_id, t.id)).toEqual(next.topic);
    expect((await s.topics.history(t.workspace_id, t.id, 10)).map((e) => [e.version, e.type])).toEqual([
      [2, "topic.updated"],
      [1, "topic.created"],
    ]);
  });

  test("TopicStore.delete() cut short after its event: writes find the topic gone and finish the deletion", async () => {
    const t = await storedTopic({ body: "secret" });
    const moved = change(t, { slug: unique("moved") }, "topic.moved");
    expect(await s.topics.update(moved)).toBe("ok");
    const gone = { ...moved.topic, version: 3 };
    await db.collection("topic_events").insertOne(
      topicEventDoc({ ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null }) as never,
    );
    expect(await s.topics.update(change(moved.topic, { title: "x" }))).toBe("not_found");
    expect(await s.topics.get(t.workspace_id, t.id)).toBeNull();
    expect(await s.topics.resolve(t.workspace_id, t.slug)).toBeNull();
    expect(await s.topics.history(t.workspace_id, t.id, 10)).toEqual([]);
    expect(await db.collection("topic_events").countDocuments({ topic_id: t.id, snapshot: { $ne: null } })).toBe(0);
  });

  test("TopicStore.delete() cut short after its event: calling it again completes it", async () => {
    const t = await storedTopic({ body: "secret" });
    const event = { ...topicEvent(null, { ...t, version: 2 }, "topic.deleted", new Date(stamp())), snapshot: null };
    await db.collection("topic_events").insertOne(topicEventDoc(event) as never);
    expect(await s.topics.delete(t.workspace_id, t.id, 1, event)).toBe("ok");
    expect(await s.topics.get(t.workspace_id, t.id)).toBeNull();
    expect(await s.topics.history(t.workspace_id, t.id, 10)).toEqual([]);
  });

  test("ProposalStore.decide() cut short after its decision: reads show the decision, deciding again is refused", async () => {
    const t = await storedTopic();
    const p = {
      id: uuidv7(),
      workspace_id: t.workspace_id,
      topic_id: t.id,
      summary: "s",
      patch: { body: "x" },
      base_version: 1,
      status: "open" as const,
      author_id: null,
      via: "agent" as const,
      created_at: stamp(),
      decided_at: null,
      decided_by: null,
      merged_version: null,
    };
    await s.proposals.insert(p);
    // The decision's lock, without the copy onto the proposal document.
    const decision = { status: "rejected" as const, decided_at: stamp(), decided_by: null, merged_version: null };
    await db.collection("topic_proposal_decisions").insertOne({ _id: p.id as never, workspace_id: t.workspace_id, ...decision });
    expect(await s.proposals.get(t.workspace_id, p.id)).toEqual({ ...p, ...decision });
    expect((await s.proposals.list(t.workspace_id, { status: "open" }, "oldest", page)).items).toEqual([]);
    expect(await s.proposals.decide(t.workspace_id, p.id, { ...decision, status: "merged", merged_version: 2 })).toBe("not_open");
    expect(await db.collection("topic_proposals").findOne({ _id: p.id as never })).toMatchObject({ status: "rejected" });
  });

  test("RelationStore.retarget() cut short after a carried copy: calling it again finishes without duplicates", async () => {
    const src = await storedTopic();
    const [tgt, x] = [await storedTopic({}, src.workspace_id), await storedTopic({}, src.workspace_id)];
    const ws = src.workspace_id;
    const r = {
      id: uuidv7(),
      workspace_id: ws,
      from_topic_id: src.id,
      to_topic_id: x.id,
      type: "depends_on" as const,
      created_at: stamp(),
      created_by: null,
    };
    expect(await s.relations.insert(r)).toBe("ok");
    // The carried copy inserted, the source's relation not yet deleted.
    const copy = { ...r, id: uuidv7(), from_topic_id: tgt.id };
    expect(await s.relations.insert(copy)).toBe("ok");
    expect(await s.relations.retarget(ws, src.id, tgt.id, uuidv7)).toBe(0);
    expect(await s.relations.list(ws, 10)).toEqual([copy]);
  });

  /** A collection in a fresh workspace, and a helper making its records and their history entries. */
  async function storedCollection() {
    const b = bundle();
    await s.workspaces.bootstrap(b);
    const c = collectionFixture(b.workspace.id) as Collection;
    await s.collections.insert(c);
    return c;
  }
  const recordChange = (r: CollectionRecord, over: Partial<RecordChange> = {}): RecordChange =>
    recordChangeFixture(r, { stage: null, ...over });
  async function storedRecord(c: Collection, fields: Record<string, unknown> = { company: "Acme" }): Promise<CollectionRecord> {
    const r = recordFixture(c, { fields });
    expect(await s.records.insert({ record: r, change: recordChange(r) })).toBe("ok");
    return r;
  }
  const nextRecord = (r: CollectionRecord, over: Partial<CollectionRecord>): CollectionRecord => {
    const fields = over.fields ?? r.fields;
    return { ...r, ...over, fields, search_text: recordSearchText(fields), version: r.version + 1, updated_at: stamp() };
  };

  test("RecordStore.update() cut short after its history entry: the next write of that version rolls the record forward, then conflicts", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    // The write's first step (its entry, carrying the next state), without the record replace.
    const cut = nextRecord(r, { status: "qualified", fields: { company: "Acme Corp" } });
    await db.collection("record_changes").insertOne(recordChangeDoc(recordChange(cut), cut) as never);
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toEqual(r);
    const late = nextRecord(r, { status: "lost" });
    expect(await s.records.update({ record: late, change: recordChange(late) })).toBe("version_conflict");
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toEqual(cut);
    // Re-read, the write goes through; only the newest entry keeps its copy of the state.
    const next = nextRecord(cut, { status: "lost" });
    expect(await s.records.update({ record: next, change: recordChange(next) })).toBe("ok");
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toEqual(next);
    expect((await s.records.history(c.workspace_id, c.id, r.id, 10)).map((h) => h.version)).toEqual([3, 2, 1]);
    expect(await db.collection("record_changes").countDocuments({ record_id: r.id, next: { $exists: true } })).toBe(1);
  });

  test("RecordStore.history() heals a record whose write was cut short after its entry", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    const cut = nextRecord(r, { fields: { company: "Healed" } });
    await db.collection("record_changes").insertOne(recordChangeDoc(recordChange(cut), cut) as never);
    expect((await s.records.history(c.workspace_id, c.id, r.id, 10)).map((h) => h.version)).toEqual([2, 1]);
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toEqual(cut);
  });

  test("RecordStore.delete() cut short after its lock: writes find the record gone and finish the deletion", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    const lock = {
      _id: uuidv7(),
      workspace_id: c.workspace_id,
      collection_id: c.id,
      record_id: r.id,
      version: 2,
      deleting: true,
      at: stamp(),
    };
    await db.collection("record_changes").insertOne(lock as never);
    // Until someone meets the lock, readers still see the record.
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toEqual(r);
    const late = nextRecord(r, { status: "won" });
    expect(await s.records.update({ record: late, change: recordChange(late) })).toBe("not_found");
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toBeNull();
    expect(await s.records.history(c.workspace_id, c.id, r.id, 10)).toEqual([]);
    expect(await db.collection("record_changes").countDocuments({ record_id: r.id })).toBe(0);
  });

  test("RecordStore.delete() cut short after removing the record: deleting again removes its history", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    const lock = {
      _id: uuidv7(),
      workspace_id: c.workspace_id,
      collection_id: c.id,
      record_id: r.id,
      version: 2,
      deleting: true,
      at: stamp(),
    };
    await db.collection("record_changes").insertOne(lock as never);
    await db.collection("records").deleteOne({ _id: r.id as never });
    expect(await s.records.delete(c.workspace_id, c.id, r.id, null)).toBe("not_found");
    expect(await db.collection("record_changes").countDocuments({ record_id: r.id })).toBe(0);
  });

  test("CollectionStore.update() cut short after its version: the next write rolls it forward, then conflicts", async () => {
    const c = await storedCollection();
    const cut = { ...c, name: "Renamed", views: [{ "a.b": 1, $c: 2 }], version: 2, updated_at: stamp() };
    await db.collection("collection_versions").insertOne(
      { _id: uuidv7(), workspace_id: c.workspace_id, collection_id: c.id, version: 2, snapshot: collectionDoc(cut) } as never,
    );
    expect(await s.collections.get(c.workspace_id, c.id)).toEqual(c);
    expect(await s.collections.update({ ...c, name: "Late", version: 2, updated_at: stamp() })).toBe("version_conflict");
    expect(await s.collections.get(c.workspace_id, c.id)).toEqual(cut);
    const next = { ...cut, name: "Again", version: 3, updated_at: stamp() };
    expect(await s.collections.update(next)).toBe("ok");
    expect(await s.collections.get(c.workspace_id, c.id)).toEqual(next);
  });

  test("CollectionStore.purge() cut short after marking: readers no longer see it, purging again with any version finishes", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    await storedRecord(c);
    // The purge's version and its marker, without the deletions that follow.
    await db.collection("collection_versions").insertOne(
      { _id: uuidv7(), workspace_id: c.workspace_id, collection_id: c.id, version: 2, purge: true } as never,
    );
    await db.collection("collections").updateOne({ _id: c.id as never }, { $set: { purging: stamp() } });
    expect(await s.collections.get(c.workspace_id, c.id)).toBeNull();
    expect((await s.collections.list(c.workspace_id, { statuses: ["active", "archived"] }, { limit: 10 })).items).toEqual([]);
    expect(await s.collections.purgePlan(c.workspace_id, c.id)).toBeNull();
    expect(await s.collections.update({ ...c, name: "x", version: 2 })).toBe("not_found");
    const late = await (async () => {
      const at = stamp();
      const x: CollectionRecord = { ...r, id: uuidv7(), created_at: at, updated_at: at };
      return s.records.insert({ record: x, change: recordChange(x) });
    })();
    expect(late).toBe("collection_not_found");
    expect(await s.collections.purge(c.workspace_id, c.id, 7)).toEqual({
      collection_id: c.id,
      records: 2,
      history_entries: 2,
      outcomes: 0,
      entity_links: 0,
    });
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toBeNull();
    for (const name of ["collections", "collection_versions", "records", "record_changes"]) {
      expect(await db.collection(name).countDocuments(name === "collections" ? { _id: c.id as never } : { collection_id: c.id })).toBe(0);
    }
    expect(await s.collections.purge(c.workspace_id, c.id, 1)).toBe("not_found");
  });

  test("CollectionStore.purge() cut short after its version, before marking: the next write finishes the purge", async () => {
    const c = await storedCollection();
    const r = await storedRecord(c);
    await db.collection("collection_versions").insertOne(
      { _id: uuidv7(), workspace_id: c.workspace_id, collection_id: c.id, version: 2, purge: true } as never,
    );
    expect(await s.collections.update({ ...c, name: "x", version: 2, updated_at: stamp() })).toBe("not_found");
    expect(await s.collections.get(c.workspace_id, c.id)).toBeNull();
    expect(await s.records.get(c.workspace_id, c.id, r.id)).toBeNull();
  });

  test("EntityStore.upsert() merge cut short after its version: the next upsert of the pair rolls it forward and merges on top", async () => {
    const b = bundle();
    await s.workspaces.bootstrap(b);
    const at = stamp();
    const e: Entity = {
      id: uuidv7(),
      workspace_id: b.workspace.id,
      kind: "company",
      name: "Acme",
      dedup_key: "acme.com",
      dedup_norm: "acme.com",
      attributes: { "site.url": "https://acme.com" },
      version: 1,
      created_at: at,
      updated_at: at,
    };
    expect((await s.entities.upsert(e, () => null)).created).toBe(true);
    const cut = { ...e, attributes: { ...e.attributes, size: 10 }, version: 2, updated_at: stamp() };
    await db.collection("entity_versions").insertOne(
      { _id: uuidv7(), workspace_id: e.workspace_id, entity_id: e.id, version: 2, snapshot: entityDoc(cut) } as never,
    );
    expect(await s.entities.get(e.workspace_id, e.id)).toEqual(e);
    const again = { ...e, id: uuidv7() };
    const merged = await s.entities.upsert(
      again,
      (x) => ({ ...x, attributes: { ...x.attributes, region: "eu" }, version: x.version + 1, updated_at: stamp() }),
    );
    expect(merged.previous).toEqual(cut);
    expect(merged.entity).toMatchObject({ id: e.id, version: 3, attributes: { "site.url": "https://acme.com", size: 10, region: "eu" } });
    expect(await s.entities.get(e.workspace_id, e.id)).toEqual(merged.entity);
  });

  test("WebhookDeliveryStore.record() cut short between the delivery's insert and attempt 1's lease: a redelivery takes attempt 1, once", async () => {
    // What a concurrent redelivery also sees between the recorder's two writes (core/webhooks/ports.ts):
    // no lease reads as lapsed, so the redelivery applies it and the recorder, should it go on, is busy.
    const source = unique("src");
    const at = new Date().toISOString();
    const lease = new Date(Date.now() + 60_000).toISOString();
    await db.collection("webhook_deliveries").insertOne({
      _id: `${source}:d` as never,
      source,
      delivery_id: "d",
      payload: "first",
      state: "received",
      received_at: at,
      applied_at: null,
      outcome: null,
    });
    const redelivery = await s.webhookDeliveries.record({ source, delivery_id: "d", payload: "second", at, lease_until: lease });
    expect(redelivery).toMatchObject({ kind: "taken", delivery: { payload: "first", attempts: 1, lease_until: lease } });
    expect((await s.webhookDeliveries.record({ source, delivery_id: "d", payload: "third", at, lease_until: lease })).kind).toBe("busy");
  });

  test("status() reports ok: false, without throwing, once the server is gone", async () => {
    const dead = new MongoClient("mongodb://127.0.0.1:9/none", { serverSelectionTimeoutMS: 500 });
    const st = await createMongoStores(dead, dead.db()).status();
    expect(st).toMatchObject({ kind: "mongo", ok: false });
    await dead.close();
  });
});

describe("mongo: start-up on an existing database", () => {
  test("openMongoStores() opens a database another instance already set up, and both serve it", async () => {
    const url = freshMongoDatabase(server);
    const first = await openMongoStores(url);
    const b = bundle();
    expect(await first.workspaces.bootstrap(b)).toBe("ok");
    // a restart, or a second server instance, runs the index set-up again on the same database
    const second = await openMongoStores(url);
    const third = await openMongoStores(url);
    expect(await second.workspaces.getBySlug(b.workspace.slug)).toEqual(b.workspace);
    expect((await third.apiKeys.findByHash(b.apiKey.key_hash))?.workspace.id).toBe(b.workspace.id);
    for (const s of [first, second, third]) await s.close();
  });
});

describe("mongo: radar compare-and-set", () => {
  test("a writer that read version 1 long ago cannot land version 2 after others moved the run on", async () => {
    const client = new MongoClient(freshMongoDatabase(server));
    await client.connect();
    const db = client.db();
    await ensureIndexes(db);
    const c = radarCollections(db);
    const live = new MongoRunStore(c);
    const ws = uuidv7();
    const run = {
      id: uuidv7(),
      workspace_id: ws,
      search_id: uuidv7(),
      collection_id: uuidv7(),
      criterion_slug: "german-fintechs",
      kind: "company",
      monitor_id: null,
      state: "priced",
      quote: null,
      results: { matched: 0, created: 0, updated: 0, unchanged: 0 },
      hold_id: null,
      hold_credits: 0,
      charged_credits: 0,
      released_credits: 0,
      error: null,
      cursor: null,
      read: 0,
      lease_until: null,
      attempt: 0,
      actor_id: null,
      version: 1,
      created_at: stamp(),
      updated_at: stamp(),
      started_at: null,
      finished_at: null,
    } as unknown as RadarRun;
    await live.insertRun(run);
    // The stalled writer: its read of the run happened before the others wrote versions 2 and 3.
    const staleRuns = new Proxy(c.radarRuns, {
      get: (target, prop, receiver) =>
        prop === "findOne" ? () => Promise.resolve({ _id: run.id, ...run }) : Reflect.get(target, prop, receiver),
    });
    const stalled = new MongoRunStore({ ...c, radarRuns: staleRuns });
    expect(await live.updateRun({ ...run, state: "queued", version: 2 })).toBe("ok");
    expect(await live.updateRun({ ...run, state: "running", version: 3 })).toBe("ok");
    expect(await stalled.updateRun({ ...run, state: "cancelled", version: 2 })).toBe("version_conflict");
    expect(await live.getRun(ws, run.id)).toMatchObject({ state: "running", version: 3 });
    await client.close();
  });
});

/**
 * The ends of MongoDB unlocks (docs/decisions/055-unlock-hold-sweep.md): what a crash or a stall
 * between an unlock's writes leaves, written here as the adapter would have left it, and how the
 * next finish or sweep of the token completes it.
 */
describe("mongo: unlock ends", () => {
  let client: MongoClient;
  let db: Db;
  let c: ReturnType<typeof contactCollections>;
  let ledger: MongoCreditLedgerStore;
  let live: MongoContactUnlockStore;
  const collections = () => mongoCollectionBundle(collectionCollections(db)).stores;
  const past = () => new Date(Date.now() - 1_000).toISOString();
  const resolution = () => ({ id: uuidv7(), at: stamp(), reason: "contact unlock" });
  const claim = (ws: string, entity: string, token: string, kind: "email" | "phone") => ({
    workspace_id: ws,
    entity_id: entity,
    kind,
    state: "pending" as const,
    value: null,
    credits: 0,
    token,
    claimed_at: stamp(),
    settled_at: null,
  });
  const funded = async (amount: number) => {
    const ws = uuidv7();
    await ledger.append({ workspace_id: ws, id: uuidv7(), at: stamp(), op: { type: "grant", amount } });
    return ws;
  };
  const leftovers = async (ws: string) => ({
    leases: await c.radarUnlockLeases.countDocuments({ workspace_id: ws }),
    ends: await c.radarUnlockEnds.countDocuments({ workspace_id: ws }),
  });

  beforeAll(async () => {
    client = new MongoClient(freshMongoDatabase(server));
    await client.connect();
    db = client.db();
    await ensureIndexes(db);
    c = contactCollections(db);
    ledger = new MongoCreditLedgerStore(creditCollections(db));
    live = new MongoContactUnlockStore(c, ledger, collections());
  });
  afterAll(async () => {
    await client?.close();
  });

  test("a begin stalled past its lease and swept before its hold was written ends itself: expired, nothing held or claimed", async () => {
    const ws = await funded(20);
    const token = uuidv7();
    const entity = uuidv7();
    // The sweep runs while the begin is stalled between its claims and its hold.
    const stalledClaims = new Proxy(c.radarUnlocks, {
      get: (target, prop, receiver) =>
        prop === "insertOne"
          ? async (doc: Parameters<typeof target.insertOne>[0]) => {
            const done = await target.insertOne(doc);
            expect(await live.expireUnlock(ws, token, resolution())).toEqual({ dropped: 1, resolution: null });
            return done;
          }
          : Reflect.get(target, prop, receiver),
    });
    const stalled = new MongoContactUnlockStore({ ...c, radarUnlocks: stalledClaims }, ledger, collections());
    const begun = await stalled.beginUnlocks([claim(ws, entity, token, "email")], {
      amount: 4,
      reason: "contact unlock",
      lease_until: past(),
    }, past());
    expect(begun).toEqual({ ok: false, reason: "expired" });
    expect(await ledger.totals(ws)).toMatchObject({ balance: 20, held: 0 });
    expect((await ledger.resolutionOf(ws, token))?.type).toBe("release");
    expect(await live.unlocksOf(ws, [entity])).toEqual([]);
    expect(await leftovers(ws)).toEqual({ leases: 0, ends: 0 });
  });

  test("a finish cut short after its end and one settle is completed by the sweep: every value it wrote is captured", async () => {
    const ws = await funded(20);
    const token = uuidv7();
    const entity = uuidv7();
    const asked = [claim(ws, entity, token, "email"), claim(ws, entity, token, "phone")];
    expect((await live.beginUnlocks(asked, { amount: 12, reason: "contact unlock", lease_until: past() }, past())).ok).toBe(true);
    // The crash: the finish's end inserted, the e-mail settled, the phone not, nothing resolved.
    const settles = [
      { ...asked[0]!, state: "unlocked" as const, value: "a@b.example", credits: 4, settled_at: stamp() },
      { ...asked[1]!, state: "unlocked" as const, value: "+1 555", credits: 8, settled_at: stamp() },
    ];
    await c.radarUnlockEnds.insertOne({
      _id: `${ws}:${token}`,
      workspace_id: ws,
      token,
      kind: "finish",
      settles,
      resolution: resolution(),
    });
    await c.radarUnlocks.updateOne({ _id: `${ws}:${entity}:email` }, {
      $set: { state: "unlocked", value: "a@b.example", credits: 4, settled_at: stamp() },
    });
    expect((await live.expiredUnlocks(new Date().toISOString(), 1_000)).map((l) => l.token)).toContain(token);
    // The sweep meets the finish's end and completes it: the phone settled too, both captured.
    const swept = await live.expireUnlock(ws, token, resolution());
    expect(swept).toMatchObject({ dropped: 0, resolution: { type: "capture", amount: -12, held: -12, hold_id: token } });
    expect((await live.unlocksOf(ws, [entity])).map((u) => `${u.kind}:${u.state}:${u.value}`).sort()).toEqual([
      "email:unlocked:a@b.example",
      "phone:unlocked:+1 555",
    ]);
    expect(await ledger.totals(ws)).toMatchObject({ balance: 8, held: 0 });
    expect(await leftovers(ws)).toEqual({ leases: 0, ends: 0 });
  });

  test("an expiry cut short after dropping the claims is completed by the late finish, which settles nothing", async () => {
    const ws = await funded(20);
    const token = uuidv7();
    const entity = uuidv7();
    const u = claim(ws, entity, token, "email");
    expect((await live.beginUnlocks([u], { amount: 4, reason: "contact unlock", lease_until: past() }, past())).ok).toBe(true);
    // The crash: the expiry's end inserted, the pending claim dropped, the hold not yet released.
    await c.radarUnlockEnds.insertOne({
      _id: `${ws}:${token}`,
      workspace_id: ws,
      token,
      kind: "expire",
      settles: [],
      resolution: resolution(),
    });
    await c.radarUnlocks.deleteOne({ _id: `${ws}:${entity}:email` });
    const late = await live.finishUnlocks(
      ws,
      token,
      [{ ...u, state: "unlocked", value: "a@b.example", credits: 4, settled_at: stamp() }],
      resolution(),
    );
    expect(late).toMatchObject({ settled: [], resolution: { type: "release", amount: 0, held: -4 } });
    expect(await live.unlocksOf(ws, [entity])).toEqual([]);
    expect(await ledger.totals(ws)).toMatchObject({ balance: 20, held: 0 });
    expect(await leftovers(ws)).toEqual({ leases: 0, ends: 0 });
  });
});
