import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSqlStores, migrate, postgresJsDriver, type SqlDriver } from "../../adapters/postgres/mod.ts";
import { READ_HEADS, readTopics } from "../../adapters/postgres/code-context/anchor-index-store.ts";
import { READ_KEPT_HEADS, READ_TERM_WEIGHTS, READ_VERSIONS } from "../../adapters/postgres/code-context/topic-head-store.ts";
import { topicColumns } from "../../adapters/postgres/topics/topic-rows.ts";
import type { Stores } from "../../core/stores.ts";
import { topicEvent } from "../../core/topics/topic-change.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { bootstrapped, topicFixture } from "./fixtures.ts";

/**
 * The plan of the one query a match-files or retrieve request makes on PostgreSQL once the
 * workspace's anchors are held (ADR 038): the matched topics by primary key and the anchor
 * version by primary key. A change that loses either index shows here.
 */
describe("postgres: the anchor index's per-request query", () => {
  let driver: SqlDriver;
  let s: Stores;
  const ids: string[] = [];
  let ws = "";
  beforeAll(async () => {
    driver = postgresJsDriver(await freshDatabase(await sharedPostgres()));
    await migrate(driver);
    s = createSqlStores(driver);
    for (let w = 0; w < 2; w++) {
      const id = (await bootstrapped(s)).workspace.id;
      if (w === 0) ws = id;
      for (let i = 0; i < 300; i++) {
        const t = topicFixture(id, { anchors: [`src/m${i % 40}/**`, `docs/d${i}.md`] });
        await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
        if (w === 0 && i % 100 === 0) ids.push(t.id);
      }
    }
    // Other workspaces with an anchor version each: the version is one row of many, as in production.
    for (let w = 0; w < 200; w++) {
      const t = topicFixture((await bootstrapped(s)).workspace.id, { anchors: ["src/**"] });
      await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) });
    }
    await driver.exec("analyze topics; analyze anchor_versions; analyze topic_versions");
  });
  afterAll(async () => {
    await s?.close();
  });

  test("reads the matched topics by topics_pkey and the version by anchor_versions_pkey", async () => {
    const explain = async (tx: SqlDriver) =>
      (await tx.query<Record<string, string>>(`explain ${readTopics(topicColumns("t"))}`, [ws, ids])).map((r) => r["QUERY PLAN"]).join(
        "\n",
      );
    expect(await explain(driver)).toContain("Index Scan using topics_pkey on topics t");
    // A few hundred versions fit in 3 pages, which the planner rightly reads whole; with
    // sequential scans priced out (as a table of many workspaces does), the primary key serves.
    const large = await driver.transaction(async (tx) => {
      await tx.query("set local enable_seqscan = off");
      return explain(tx);
    });
    expect(large).toContain("anchor_versions_pkey on anchor_versions");
    expect(large).not.toContain("Seq Scan");
    const read = await s.anchorIndex.read(ws, ids);
    expect(read.topics.map((t) => t.id).sort()).toEqual([...ids].sort());
    expect(read.version).toBe((await s.anchorIndex.load(ws))!.version);
  });

  test("match-files' heads: each id sent looked up by topics_pkey, the version by anchor_versions_pkey", async () => {
    const explain = async (tx: SqlDriver) =>
      (await tx.query<Record<string, string>>(`explain ${READ_HEADS}`, [ws, ids.join(","), new Date().toISOString()]))
        .map((r) => r["QUERY PLAN"]).join("\n");
    const plan = await explain(driver);
    expect(plan).toContain("Index Scan using topics_pkey on topics t");
    expect(plan).toContain("Function Scan on unnest p");
    const large = await driver.transaction(async (tx) => {
      await tx.query("set local enable_seqscan = off");
      return explain(tx);
    });
    expect(large).toContain("anchor_versions_pkey on anchor_versions");
    expect(large).not.toContain("Seq Scan");
    const heads = await s.anchorIndex.heads(ws, ids, new Date().toISOString());
    expect(heads.topics.map((t) => ids[t.at])).toEqual(heads.topics.map((t) => t.id));
    expect(heads.topics.map((t) => t.id).sort()).toEqual([...ids].sort());
  });

  // The statements of the heads kept under the topic version (ADR 048).
  const plan = async (sql: string, params: unknown[]) => {
    const explain = async (tx: SqlDriver) =>
      (await tx.query<Record<string, string>>(`explain ${sql}`, params)).map((r) => r["QUERY PLAN"]).join("\n");
    const small = await explain(driver);
    // As above: with sequential scans priced out (a table of many workspaces), the primary keys serve.
    const large = await driver.transaction(async (tx) => {
      await tx.query("set local enable_seqscan = off");
      return explain(tx);
    });
    return { small, large };
  };

  test("a request whose heads are kept reads the two versions, each by its primary key, and nothing else", async () => {
    const { large } = await plan(READ_VERSIONS, [ws]);
    expect(large).toContain("anchor_versions_pkey on anchor_versions");
    expect(large).toContain("topic_versions_pkey on topic_versions");
    expect(large).not.toContain("topics t");
    expect(large).not.toContain("Seq Scan");
    const versions = await s.topicHeads.versions(ws);
    expect(versions).toEqual({ anchors: (await s.anchorIndex.load(ws))!.version, topics: expect.stringMatching(/^[1-9][0-9]*$/) });
  });

  test("heads not yet kept: each id by topics_pkey, with both versions by their primary keys", async () => {
    const { small, large } = await plan(READ_KEPT_HEADS, [ws, ids.join(",")]);
    expect(small).toContain("Index Scan using topics_pkey on topics t");
    expect(large).toContain("anchor_versions_pkey on anchor_versions");
    expect(large).toContain("topic_versions_pkey on topic_versions");
    expect(large).not.toContain("Seq Scan");
    const read = await s.topicHeads.heads(ws, ids);
    expect(read.heads.map((h) => ids[h.at])).toEqual(read.heads.map((h) => h.id));
    expect(read.versions).toEqual(await s.topicHeads.versions(ws));
  });

  test("term weights: each id by topics_pkey, no body read", async () => {
    const { small, large } = await plan(READ_TERM_WEIGHTS, [ws, ids.join(","), ["alpha", "beta"]]);
    expect(small).toContain("Index Scan using topics_pkey on topics t");
    expect(large).not.toContain("Seq Scan");
    expect(READ_TERM_WEIGHTS).not.toContain("body");
  });
});
