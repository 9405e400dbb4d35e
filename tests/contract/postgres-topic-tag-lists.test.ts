/**
 * The list of one tag on PostgreSQL and PGlite (migrations/021-topic-tag-lists.ts, ADR 037):
 * migration 021 fills `topic_tags` and `body_head` from the topics a deployment already holds, and
 * the statement `list()` runs for one tag is a range of `topic_tags_list_idx` that reads no body,
 * in the plan for its values and in the generic plan PostgreSQL's plan cache settles on. (That the
 * writes keep the table exact is the contract suite's "pages the live topics carrying it" test.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSqlStores, migrate, MIGRATIONS, pgliteDriver, postgresJsDriver, type SqlDriver } from "../../adapters/postgres/mod.ts";
import { BODY_HEAD_CHARS } from "../../adapters/postgres/topics/topic-rows.ts";
import type { Stores } from "../../core/stores.ts";
import { EXCERPT_BODY_CHARS } from "../../core/topics/view.ts";
import { bootstrapped } from "./fixtures.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";

const TOPICS = 3_000;
/** Tags of the seeded topics: every 3rd, every 10th, every 100th, and one of 400 groups each (so the registry takes more than a page). */
const TAGS = ["popular", "mid", "rare", "g3"];

/**
 * `TOPICS` topics written as rows before migration 021 existed, with their tag registry: a third
 * carry `popular`, some are archived, some drifted, and many share an `updated_at` (ties go by id).
 */
const SEED = /* sql */ `
insert into topics (workspace_id, id, slug, title, body, tags, kind, origin, status, authoritative, drift,
                    merged_from, version, created_at, updated_at, trust_rank, title_terms, tag_terms, search)
select $1::uuid, md5(i::text)::uuid, 'topic-' || i, 'Topic ' || i, repeat('word' || i || ' ', 100),
       array_remove(array['g' || (i % 400), case when i % 10 = 0 then 'mid' end,
                          case when i % 3 = 0 then 'popular' end, case when i % 100 = 0 then 'rare' end], null),
       'note', 'manual', s.status, s.status = 'reviewed',
       case when i % 97 = 0 then '{"commit": "c", "files": ["a.ts"], "at": "2026-01-01T00:00:00.000Z"}'::jsonb end,
       '{}', 1, timestamptz '2026-01-01' + (i % 500) * interval '1 minute', timestamptz '2026-01-01' + (i % 500) * interval '1 minute',
       case s.status when 'reviewed' then 3 when 'proposed' then 2 when 'draft' then 1 else 0 end, '{}', '{}', ''::tsvector
from generate_series(1, ${TOPICS}) as i,
     lateral (select case when i % 20 = 0 then 'archived' when i % 20 < 7 then 'reviewed' when i % 20 < 12 then 'proposed'
                          else 'draft' end as status) s;
insert into tags (workspace_id, name, topic_count, live_count, created_at, updated_at)
select t.workspace_id, u.name, count(*), count(*) filter (where t.status <> 'archived'), now(), now()
from topics t, unnest(t.tags) as u (name) where t.workspace_id = $1::uuid
group by t.workspace_id, u.name;
`;

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Output?: string[];
  Plans?: PlanNode[];
}

function planOf(rows: Record<string, unknown>[]): PlanNode {
  const raw = rows[0]?.["QUERY PLAN"];
  return ((typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>)[0]!.Plan;
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/** What the tests require of a plan of the tag page, as one comparable value. */
function shape(plan: PlanNode) {
  const all = nodes(plan);
  const range = all.find((n) => n["Node Type"] === "Limit")?.Plans?.[0];
  return {
    // The page: a Limit straight over a scan of the ordered index (no sort of the tag's rows).
    pageRange: range && /^Index (Only )?Scan$/.test(range["Node Type"]) ? range["Index Name"] : null,
    // Its topics read by key; nothing scanned whole.
    topicsReadBy: [...new Set(all.filter((n) => n["Relation Name"] === "topics").map((n) => `${n["Node Type"]} ${n["Index Name"]}`))],
    fullScans: all.filter((n) => /Seq Scan|Bitmap/.test(n["Node Type"])).map((n) => n["Relation Name"]),
    // The excerpt comes from `body_head`, so the body (in TOAST) is not fetched. (A scan may pass
    // every column up, `t.body` included, as a pointer: it is fetched only where used.)
    sent: (plan.Output ?? []).filter((o) => /\bt\.body/.test(o)),
  };
}

const EXPECTED_SHAPE = {
  pageRange: "topic_tags_list_idx",
  topicsReadBy: ["Index Scan topics_pkey"],
  fullScans: [],
  sent: ["t.body_head"],
};

function suite(name: string, open: () => Promise<SqlDriver>) {
  describe(`${name}: the list of one tag`, () => {
    let driver: SqlDriver;
    let stores: Stores;
    let ws: string;
    /** The statements the stores ran, most recent last. */
    const ran: { text: string; params: unknown[] }[] = [];

    beforeAll(async () => {
      driver = await open();
      await migrate(driver, MIGRATIONS.filter((m) => m.version < 21));
      const spy: SqlDriver = {
        ...driver,
        query: (text, params, opts) => {
          ran.push({ text, params: params ?? [] });
          return driver.query(text, params, opts);
        },
      };
      // The store's own statements, read every time: no topic read cache in front (ADR 047).
      stores = createSqlStores(spy, { topicReadCache: false });
      ws = (await bootstrapped(stores)).workspace.id;
      await driver.exec(SEED.replaceAll("$1::uuid", `'${ws}'::uuid`));
      expect(await migrate(driver)).toEqual(MIGRATIONS.filter((m) => m.version >= 21).map((m) => m.version));
      for (const table of ["topics", "topic_tags", "tags"]) await driver.exec(`vacuum analyze ${table}`);
    }, 120_000);
    afterAll(async () => {
      await stores?.close();
    });

    test("migration 021 fills topic_tags and body_head from the topics stored before it", async () => {
      const all = (await stores.topics!.list(ws, {}, { limit: TOPICS, offset: 0 })).items;
      expect(all.length).toBeGreaterThan(TOPICS * 0.9);
      const bodies = new Map(all.map((t) => [t.id, t.body]));
      for (const tag of TAGS) {
        const want = all.filter((t) => t.tags.includes(tag)).map((t) => t.id);
        for (const page of [{ limit: 50, offset: 0 }, { limit: 50, offset: 20 }, { limit: 100, offset: want.length - 30 }]) {
          const got = await stores.topics!.list(ws, { tags: [tag] }, page, { bodyChars: EXCERPT_BODY_CHARS });
          expect({ tag, page, ids: got.items.map((t) => t.id), total: got.total })
            .toEqual({ tag, page, ids: want.slice(page.offset, page.offset + page.limit), total: want.length });
          for (const t of got.items) expect(t.body).toBe(bodies.get(t.id)!.slice(0, EXCERPT_BODY_CHARS));
        }
      }
    });

    test("the summary views' excerpt is served by body_head", () => {
      expect(EXCERPT_BODY_CHARS).toBeLessThanOrEqual(BODY_HEAD_CHARS);
    });

    test("the page of one tag is a range of topic_tags_list_idx that reads no body, with its values' plan and the generic one", async () => {
      for (const tag of ["popular", "rare"]) {
        ran.length = 0;
        await stores.topics!.list(ws, { tags: [tag] }, { limit: 50, offset: 0 }, { bodyChars: EXCERPT_BODY_CHARS });
        expect(ran).toHaveLength(1);
        const { text, params } = ran[0]!;
        const custom = planOf(await driver.query(`explain (format json, verbose) ${text}`, params));
        expect({ tag, ...shape(custom) }).toEqual({ tag, ...EXPECTED_SHAPE });

        const generic = await driver.transaction(async (tx) => {
          await tx.exec(`set local plan_cache_mode = force_generic_plan; prepare tag_page as ${text}`);
          const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
          const rows = await tx.query<Record<string, unknown>>(
            `explain (format json, verbose) execute tag_page(${params.map(literal).join(", ")})`,
          );
          await tx.exec("deallocate tag_page");
          return planOf(rows);
        });
        expect({ tag, generic: true, ...shape(generic) }).toEqual({ tag, generic: true, ...EXPECTED_SHAPE });
      }
    });
  });
}

suite("pglite", () => pgliteDriver());
suite("postgres", async () => postgresJsDriver(await freshDatabase(await sharedPostgres())));
