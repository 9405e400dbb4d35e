/**
 * Topic reads kept under the workspace's topic version (migrations/030-topic-versions.ts, ADR 047)
 * on PGlite and on a PostgreSQL server: two store bundles on one database stand for two server
 * instances, each with its own cache. What one writes, the other's next list or search shows,
 * through every kind of topic write; the version moves once per transaction, never not at all
 * under concurrent first writes, and a workspace still deletes with its topics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSqlStores, migrate, pgliteDriver, postgresJsDriver, type SqlDriver } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { TopicWrite } from "../../core/topics/ports.ts";
import { topicEvent } from "../../core/topics/topic-change.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { bootstrapped, stamp, topicFixture } from "./fixtures.ts";

const page = { limit: 50, offset: 0 };

function edit(t: Topic, patch: Partial<Topic>, type: "topic.updated" | "topic.retagged" = "topic.updated"): TopicWrite {
  const next = { ...t, ...patch, version: t.version + 1, updated_at: stamp() };
  return { topic: next, event: topicEvent(null, next, type, new Date(next.updated_at)) };
}

const backends: [string, () => Promise<SqlDriver>][] = [
  ["pglite", () => pgliteDriver()],
  ["postgres", async () => postgresJsDriver(await freshDatabase(await sharedPostgres()))],
];

for (const [name, open] of backends) {
  describe(`${name}: topic reads kept under the topic version`, () => {
    let driver: SqlDriver;
    let reader: Stores; // one instance: reads, and keeps what it read
    let writer: Stores; // another instance: writes
    beforeAll(async () => {
      driver = await open();
      await migrate(driver);
      reader = createSqlStores(driver);
      writer = createSqlStores(driver);
    });
    afterAll(async () => {
      await reader?.close();
    });

    const version = async (ws: string) =>
      Number(
        (await driver.query<{ v: string }>(`select coalesce((select version from topic_versions where workspace_id = $1), 0)::text as v`, [
          ws,
        ]))[0]!.v,
      );
    const add = async (ws: string, over: Partial<Topic>) => {
      const t = topicFixture(ws, over);
      expect(await writer.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) })).toBe("ok");
      return t;
    };
    const listed = async (ws: string, tag: string) =>
      (await reader.topics.list(ws, { tags: [tag] }, page, { bodyChars: 281 })).items.map((t) => t.title).sort();
    const found = async (ws: string, word: string) =>
      (await reader.topics.search(ws, {
        terms: [word],
        statuses: ["draft", "proposed", "reviewed"],
        limit: 50,
        countCap: 1_000,
        bodyChars: 281,
      }))
        .items.map((t) => t.title).sort();

    test("another instance's insert, edit, archive, retag and delete show in the next list and search", async () => {
      const ws = (await bootstrapped(writer)).workspace.id;
      const a = await add(ws, { title: "Ledger alpha", tags: ["ops"] });
      expect(await listed(ws, "ops")).toEqual(["Ledger alpha"]);
      expect(await found(ws, "ledger")).toEqual(["Ledger alpha"]);
      // Read again unchanged: the same answer (kept).
      expect(await listed(ws, "ops")).toEqual(["Ledger alpha"]);

      const b = await add(ws, { title: "Ledger beta", tags: ["ops"] });
      expect(await listed(ws, "ops")).toEqual(["Ledger alpha", "Ledger beta"]);
      expect(await found(ws, "ledger")).toEqual(["Ledger alpha", "Ledger beta"]);

      const a2 = edit(a, { title: "Invoices alpha" });
      expect(await writer.topics.update(a2)).toBe("ok");
      expect(await listed(ws, "ops")).toEqual(["Invoices alpha", "Ledger beta"]);
      expect(await found(ws, "ledger")).toEqual(["Ledger beta"]);

      const b2 = edit(b, { status: "archived" });
      expect(await writer.topics.update(b2)).toBe("ok");
      expect(await listed(ws, "ops")).toEqual(["Invoices alpha"]);

      const retag = (t: Topic) => edit(t, { tags: ["platform"] }, "topic.retagged");
      expect(await writer.tags.retag(ws, "ops", "platform", retag)).not.toBeNull();
      expect(await listed(ws, "ops")).toEqual([]);
      expect(await listed(ws, "platform")).toEqual(["Invoices alpha"]);

      const [current] = await writer.topics.getMany(ws, [a.id]);
      const gone = { ...current!, version: current!.version + 1 };
      const deleted = await writer.topics.delete(ws, a.id, current!.version, {
        ...topicEvent(null, gone, "topic.deleted", new Date(stamp())),
        snapshot: null,
      });
      expect(deleted).toBe("ok");
      expect(await listed(ws, "platform")).toEqual([]);
      expect(await found(ws, "invoices")).toEqual([]);
    });

    test("a transaction moves the version once, however many topics it writes; other workspaces' versions stay", async () => {
      const ws = (await bootstrapped(writer)).workspace.id;
      const other = (await bootstrapped(writer)).workspace.id;
      for (let i = 0; i < 5; i++) await add(ws, { title: `Topic ${i}`, tags: ["many"] });
      await add(other, { title: "Elsewhere", tags: ["many"] });
      expect(await version(ws)).toBe(5);
      const before = await version(other);
      expect(await writer.tags.retag(ws, "many", "fewer", (t) => edit(t, { tags: ["fewer"] }, "topic.retagged"))).toBe(5);
      expect(await version(ws)).toBe(6);
      expect(await version(other)).toBe(before);
      expect(await listed(other, "many")).toEqual(["Elsewhere"]);
    });

    test("concurrent first writes of a workspace each move its version", async () => {
      const ws = (await bootstrapped(writer)).workspace.id;
      const topics = Array.from({ length: 12 }, (_, i) => topicFixture(ws, { title: `Concurrent ${i}`, tags: ["race"] }));
      const written = await Promise.all(
        topics.map((t) => writer.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) })),
      );
      expect(written.every((r) => r === "ok")).toBe(true);
      expect(await version(ws)).toBe(12);
      expect((await listed(ws, "race")).length).toBe(12);
    });

    test("a workspace deletes with its topics (no version row left behind)", async () => {
      const ws = (await bootstrapped(writer)).workspace.id;
      await add(ws, { title: "Doomed", tags: ["x"] });
      expect(await listed(ws, "x")).toEqual(["Doomed"]);
      await writer.workspaces.delete(ws);
      expect(await version(ws)).toBe(0);
      expect(await listed(ws, "x")).toEqual([]);
    });

    test("the version is read by topic_versions_pkey", async () => {
      const plan = await driver.transaction(async (tx) => {
        await tx.query("set local enable_seqscan = off");
        const rows = await tx.query<Record<string, string>>(
          `explain select coalesce((select version from topic_versions where workspace_id = $1), 0)::text as version`,
          [crypto.randomUUID()],
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan).toContain("topic_versions_pkey");
    });
  });
}
