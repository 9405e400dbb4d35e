/**
 * The one-word search path of the SQL topic store (adapters/postgres/topics/topic-search-sql.ts,
 * docs/decisions/036-search-head-postings.md), on PGlite and PostgreSQL, over a seeded corpus (the
 * benchmark's generator): it answers what core's relevance ranks first, its postings stay what
 * the topics imply through every kind of write, and the plans of its statements use the indexes
 * they were written for (a change that loses one shows here, not only in the benchmark).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSqlStores, migrate, pgliteDriver, postgresJsDriver, type SqlDriver } from "../../adapters/postgres/mod.ts";
import {
  oneWordPageAndCountSql,
  oneWordPageSql,
  type OneWordParams,
  oneWordParams,
} from "../../adapters/postgres/topics/topic-search-sql.ts";
import type { Row } from "../../adapters/postgres/row-values.ts";
import { topicColumns } from "../../adapters/postgres/topics/topic-rows.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic } from "../../core/topics/model.ts";
import { compareRanked, scoreTopic } from "../../core/topics/search-rank.ts";
import { topicTerms } from "../../core/topics/search-terms.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import { TopicDataset } from "../../bench/datasets/topics.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { bootstrapped, stamp } from "./fixtures.ts";

/** Enough topics for a common word to hold far more matches than a page, and planner statistics to say so. */
const CORPUS = 2_500;
const SEARCHED: Topic["status"][] = ["proposed", "reviewed"];

type Plan = { "Node Type": string; "Index Name"?: string; "Scan Direction"?: string; Plans?: Plan[] };

function indexesOfExplain(rows: Row[]): string[] {
  const raw = rows[0]!["QUERY PLAN"];
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: Plan }>;
  return indexesOf(doc[0]!.Plan);
}

/** Every index a plan reads, as EXPLAIN's text names it: `Index Scan Backward using topics_x_idx`. */
function indexesOf(plan: Plan): string[] {
  const dir = plan["Scan Direction"] === "Backward" ? " Backward" : "";
  const own = plan["Index Name"] ? [`${plan["Node Type"]}${dir} using ${plan["Index Name"]}`] : [];
  return [...own, ...(plan.Plans ?? []).flatMap(indexesOf)];
}

const HEAD_RANGE = /^Index (Only )?Scan Backward using topic_head_terms_pkey$/;
const SEARCH_GIN = "Bitmap Index Scan using topics_search_idx";

function runSuite(name: string, open: () => Promise<SqlDriver>) {
  describe(`${name}: one-word topic search`, () => {
    let db: SqlDriver;
    let s: Stores;
    let ws: string;
    let stored: Topic[];
    const dataset = new TopicDataset({ count: CORPUS });

    beforeAll(async () => {
      db = await open();
      await migrate(db);
      s = createSqlStores(db);
      ws = (await bootstrapped(s)).workspace.id;
      const topics = [...dataset.topics(ws, new Date(Date.UTC(2026, 0, 1)))];
      for (let i = 0; i < topics.length; i += 25) {
        await Promise.all(
          topics.slice(i, i + 25).map(async (topic) => {
            const event = topicEvent(null, topic, "topic.created", new Date(topic.created_at));
            expect(await s.topics.insert({ topic, event })).toBe("ok");
          }),
        );
      }
      // As the benchmark does, and autovacuum soon would: statistics, and the GIN pending lists merged.
      await db.exec("vacuum analyze");
      stored = topics;
    }, 600_000);
    afterAll(async () => {
      await s?.close();
    });

    const reference = (term: string, statuses: Topic["status"][] = SEARCHED) =>
      stored
        .filter((t) => statuses.includes(t.status))
        .map((t) => {
          const f = topicTerms(t);
          return { ...t, score: scoreTopic({ title: new Set(f.title), tags: new Set(f.tags), body: new Set(f.body) }, [term]) };
        })
        .filter((t): t is Topic & { score: number } => t.score !== null)
        .sort(compareRanked);

    /** Words of the corpus by what fills their first page: title hits, or tag hits, or body-only hits. */
    function wordsFor(fill: "title" | "tags" | "body"): string[] {
      const counts = new Map<string, { title: number; tags: number; body: number }>();
      for (const t of stored) {
        if (!SEARCHED.includes(t.status)) continue;
        const f = topicTerms(t);
        for (const w of new Set([...f.title, ...f.tags, ...f.body])) {
          const c = counts.get(w) ?? { title: 0, tags: 0, body: 0 };
          if (f.title.includes(w)) c.title++;
          else if (f.tags.includes(w)) c.tags++;
          else c.body++;
          counts.set(w, c);
        }
      }
      const all = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
      if (fill === "title") return all.filter(([, c]) => c.title > 60).map(([w]) => w).slice(0, 3);
      if (fill === "tags") return all.filter(([, c]) => c.title < 50 && c.title + c.tags > 60).map(([w]) => w).slice(0, 3);
      return all.filter(([, c]) => c.title + c.tags > 0 && c.title + c.tags < 40 && c.body > 100).map(([w]) => w).slice(0, 3);
    }

    test("the first page of a common word, a rare word, and words whose page fills from titles, tags or bodies is the reference's", async () => {
      const words = [dataset.queries.commonTerm, dataset.queries.rareTerm, ...wordsFor("title"), ...wordsFor("tags"), ...wordsFor("body")];
      expect(words.length).toBeGreaterThan(6);
      for (const term of words) {
        for (const statuses of [SEARCHED, ["draft", "proposed", "reviewed"] as Topic["status"][]]) {
          const expected = reference(term, statuses);
          for (const countCap of [undefined, 1_000, 20]) {
            const r = await s.topics.search(ws, { terms: [term], statuses, limit: 50, countCap, bodyChars: 281 });
            expect({ term, countCap, ids: r.items.map((t) => t.id) }).toEqual({
              term,
              countCap,
              ids: expected.slice(0, 50).map((t) => t.id),
            });
            const cap = countCap ?? Infinity;
            expect(r.capped ?? false).toBe(expected.length > cap);
            if (expected.length <= cap) expect(r.total).toBe(expected.length);
            else expect(r.total).toBeGreaterThanOrEqual(cap);
          }
        }
      }
    });

    test("topic_head_terms holds exactly each live topic's title and tag words, through edits, archives, deletes, retags and merges", async () => {
      const ws2 = (await bootstrapped(s)).workspace.id;
      const edit = (t: Topic, patch: Partial<Topic>, type: Parameters<typeof changeTopic>[3] = "topic.updated") =>
        changeTopic(null, t, patch, type, new Date(stamp()));
      const add = async (over: Partial<Topic>) => {
        const t = {
          ...stored[0]!,
          ...over,
          id: crypto.randomUUID(),
          workspace_id: ws2,
          slug: `t-${crypto.randomUUID().slice(0, 8)}`,
          version: 1,
        };
        expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(t.updated_at)) })).toBe("ok");
        return t;
      };
      const a = await add({ title: "Retry payment webhooks", tags: ["billing", "web-hooks"], status: "proposed" });
      const b = await add({ title: "Payment ledger", tags: ["billing"], status: "draft" });
      const c = await add({ title: "Archived payment notes", tags: [], status: "archived" });
      const d = await add({ title: "Gone soon", tags: ["billing"], status: "reviewed" });
      const a2 = edit(a, { title: "Retry invoices", status: "reviewed" });
      expect(await s.topics.update(a2)).toBe("ok");
      expect(await s.topics.update(edit(c, { title: "Archived payment notes, again" }))).toBe("ok");
      const gone = { ...d, version: 2 };
      expect(await s.topics.delete(ws2, d.id, 1, { ...topicEvent(null, gone, "topic.deleted", new Date(stamp())), snapshot: null })).toBe(
        "ok",
      );
      const rewrite = (t: Topic) =>
        edit(t, { tags: [...new Set([...t.tags.filter((x) => x !== "billing"), "ledger-ops"])].sort() }, "topic.retagged");
      expect(await s.tags.retag(ws2, "billing", "ledger-ops", rewrite)).toBe(2);
      const [b2] = await s.topics.getMany(ws2, [b.id]);
      expect(
        await s.topics.merge(
          edit(b2!, { status: "archived", merged_into: a.id }, "topic.merged"),
          edit(a2.topic, { body: "merged" }, "topic.merged"),
        ),
      )
        .toBe("version_conflict");
      const [a3] = await s.topics.getMany(ws2, [a.id]);
      expect(
        await s.topics.merge(
          edit(b2!, { status: "archived", merged_into: a.id }, "topic.merged"),
          edit(a3!, { body: "merged" }, "topic.merged"),
        ),
      )
        .toBe("ok");
      const [final] = await s.topics.getMany(ws2, [a.id]);
      const held = await db.query<{ term: string; weight: number; trust_rank: number; topic_id: string }>(
        `select term, weight, trust_rank, topic_id from topic_head_terms where workspace_id = $1 order by topic_id, term`,
        [ws2],
      );
      expect(held.map((r) => [r.topic_id, r.term, Number(r.weight), Number(r.trust_rank)])).toEqual(
        ([["hooks", 2], ["invoices", 3], ["ledger", 2], ["ops", 2], ["retry", 3], ["web", 2]] as const)
          .map(([term, weight]) => [final!.id, term, weight, 3]),
      );
      // Their order keys follow the topic's: a page read off them is in compareRanked order.
      const keys = await db.query<{ n: number }>(
        `select count(*)::int as n from topic_head_terms h join topics t on t.workspace_id = h.workspace_id and t.id = h.topic_id
         where h.workspace_id = $1 and (h.updated_at <> t.updated_at or h.trust_rank <> t.trust_rank)`,
        [ws2],
      );
      expect(keys[0]?.n).toBe(0);
      // A workspace's deletion takes its postings with its topics.
      expect(await s.workspaces.delete(ws2)).toBe(true);
      expect(await db.query(`select 1 from topic_head_terms where workspace_id = $1`, [ws2])).toEqual([]);
    });

    /** The indexes a plan reads (`explain` with the values bound: the plan of a statement the store plans for each value). */
    async function plan(sql: string, params: unknown[]): Promise<string[]> {
      return indexesOfExplain(await db.query<Row>(`explain (format json) ${sql}`, params));
    }

    /** The same for the generic plan, the one a prepared statement caches (the store's page statement). */
    function genericPlan(sql: string, types: string, values: string): Promise<string[]> {
      return db.transaction(async (tx) => {
        await tx.query("set local plan_cache_mode = force_generic_plan");
        await tx.exec(`prepare search_plan_check (${types}) as ${sql}`);
        try {
          return indexesOfExplain(await tx.query<Row>(`explain (format json) execute search_plan_check (${values})`));
        } finally {
          await tx.exec("deallocate search_plan_check");
        }
      });
    }

    test("EXPLAIN: a page's title and tag hits are one backward range of topic_head_terms; a word's matches come off its GIN index", async () => {
      const cols = topicColumns("t", 281);
      const p = (term: string): OneWordParams => ({
        workspaceId: ws,
        term,
        ranks: [2, 3],
        limit: 50,
        tsquery: `'${term}'`,
        countUpTo: 1_001,
      });
      const common = dataset.queries.commonTerm;
      const rare = dataset.queries.rareTerm;
      // A common word: its page is title and tag hits, one index range whatever the word (a cached plan) ...
      const page = await genericPlan(oneWordPageSql(cols), "uuid, text, smallint, smallint, bigint", `'${ws}', '${common}', 2, 3, 50`);
      expect(page.filter((i) => HEAD_RANGE.test(i))).toHaveLength(1);
      expect(page.filter((i) => i.includes("topics") && !i.includes("topics_pkey") && !i.includes("topic_head_terms"))).toEqual([]);
      // (Its total is the planner's estimate, ESTIMATE_SQL: planned, never run, so it reads no index.)
      // A rare word: the page and the count in one statement; its matches come off the GIN index, never a walk.
      const rarePlan = await plan(oneWordPageAndCountSql(cols), oneWordParams(p(rare), "count"));
      expect(rarePlan.filter((i) => HEAD_RANGE.test(i))).toHaveLength(1);
      expect(rarePlan).toContain(SEARCH_GIN);
      expect(rarePlan.filter((i) => i.includes("topics_rank_idx"))).toEqual([]);
    });
  });
}

runSuite("pglite", () => pgliteDriver());
runSuite("postgres", async () => postgresJsDriver(await freshDatabase(await sharedPostgres())));
