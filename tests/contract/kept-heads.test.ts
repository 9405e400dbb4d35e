/**
 * match-files and retrieve on the heads kept under the topic version (core/code-context/kept-heads.ts,
 * ADR 048) answer exactly as the paths that read everything per request, on a seeded corpus of
 * PGlite: each answer is compared with the same store's answer when it says it keeps no topic
 * version (`versions` null: what memory and MongoDB say). Then topics are written (title, status,
 * drift, body, archive, a new anchored topic) and the answers compared again: the kept path follows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { matchFiles } from "../../core/code-context/match-files.ts";
import { retrieve } from "../../core/code-context/retrieve.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import type { Stores } from "../../core/stores.ts";
import type { Topic, TopicStatus } from "../../core/topics/mod.ts";
import { changeTopic, topicEvent } from "../../core/topics/topic-change.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import { TEST_SECRET } from "../support/test-app.ts";
import { bootstrapped, topicFixture } from "./fixtures.ts";

const WORDS = "invoice retry webhook timeout ledger tax refund billing login session cache queue".split(" ");
const PATHS = [
  "src/billing/invoice.ts",
  "src/billing/tax.ts",
  "src/billing/retry/backoff.ts",
  "src/auth/login.ts",
  "src/auth/session/store.ts",
  "docs/billing/README.md",
  "README.md",
];
const ANCHORS = [
  "src/billing/**",
  "src/billing/*.ts",
  "src/billing/invoice.ts",
  "src/auth/**",
  "src/**/*.ts",
  "**/README.md",
  "docs/**",
  "src/billing/{tax,invoice}.ts",
  "src/auth/session/*",
];
const STATUSES: TopicStatus[] = ["draft", "proposed", "reviewed", "reviewed", "archived"];

/** A small deterministic PRNG, so a failure is the same on every run. */
function random(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe("pglite: code context on kept heads answers as the reference", () => {
  let s: Stores;
  let kept: ComposedDeps;
  let reference: ComposedDeps;
  let ws: Workspace;
  const topics: Topic[] = [];
  let reads = 0;
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

  beforeAll(async () => {
    s = await openPgliteStores();
    const core = { clock: { now: () => new Date(day(400)) }, secretBox: await createSecretBox(TEST_SECRET), paths: picomatchMatcher };
    // Counts what the kept path reads besides the versions: nothing, once it holds the answer.
    const counted = s.topicHeads;
    kept = {
      ...core,
      stores: {
        ...s,
        topicHeads: {
          versions: (w) => counted.versions(w),
          heads: (w, ids) => (reads++, counted.heads(w, ids)),
          termWeights: (w, ids, terms) => (reads++, counted.termWeights(w, ids, terms)),
        },
      },
    } as ComposedDeps;
    // The same store, saying it keeps no topic version: the paths that read everything per request.
    const heads = s.topicHeads;
    reference = {
      ...core,
      stores: {
        ...s,
        topicHeads: {
          versions: () => Promise.resolve(null),
          heads: (w, ids) => heads.heads(w, ids),
          termWeights: (w, ids, terms) => heads.termWeights(w, ids, terms),
        },
      },
    } as ComposedDeps;
    const b = await bootstrapped(s);
    ws = b.workspace;
    const next = random(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    for (let i = 0; i < 240; i++) {
      const status = pick(STATUSES);
      // Few distinct instants: ties in `updated_at` are ordered by id.
      const updated = day(Math.floor(next() * 40));
      const t = topicFixture(ws.id, {
        title: `${pick(WORDS)} ${pick(WORDS)} notes ${i}`,
        tags: next() < 0.5 ? [pick(WORDS)] : [],
        body: Array.from({ length: 30 }, () => pick(WORDS)).join(" ") + " " + "filler text. ".repeat(Math.floor(next() * 40)),
        anchors: next() < 0.85 ? [...new Set([pick(ANCHORS), pick(ANCHORS)])] : [],
        status,
        governance: status === "reviewed"
          ? { authoritative: true, approved_by: null, approved_at: day(Math.floor(next() * 400)) }
          : { authoritative: false, approved_by: null, approved_at: null },
        approved_via: status === "reviewed" ? "human" : null,
        drift: next() < 0.1 ? { commit: "abc", files: ["src/billing/invoice.ts"], at: updated } : null,
        created_at: updated,
        updated_at: updated,
      });
      expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(updated)) })).toBe("ok");
      topics.push(t);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  let session = 0;
  async function same() {
    for (
      const dto of [
        { paths: PATHS },
        { paths: PATHS, view: "compact" as const, limit_per_file: 3 },
        { paths: PATHS.slice(0, 3), limit_per_file: 200 },
      ]
    ) {
      const reference_ = await matchFiles(reference, ws, dto);
      expect(reference_.files.some((f) => f.total > 1)).toBe(true);
      expect(await matchFiles(kept, ws, dto)).toEqual(reference_);
      const before = reads;
      expect(await matchFiles(kept, ws, dto)).toEqual(reference_); // now from memory
      expect(reads).toBe(before);
    }
    for (
      const dto of [
        { question: "how does invoice retry handle a webhook timeout", paths: PATHS.slice(0, 4) },
        { question: "ledger tax refund", include_notes: true, max_topics: 7 },
        { question: "session cache queue login", paths: ["src/auth/login.ts"], budget_tokens: 900 },
        { paths: PATHS, max_topics: 30, budget_tokens: 20_000 },
      ]
    ) {
      const one = { ...dto, include_delivered: true };
      const reference_ = await retrieve(reference, ws, `ref-${session++}`, one);
      expect(reference_.topics.length).toBeGreaterThan(1);
      expect({ ...(await retrieve(kept, ws, `kept-${session++}`, one)), session: "" }).toEqual({ ...reference_, session: "" });
      const before = reads;
      expect({ ...(await retrieve(kept, ws, `kept-${session++}`, one)), session: "" }).toEqual({ ...reference_, session: "" });
      expect(reads).toBe(before);
    }
  }

  test("the same answers on the seeded corpus, and again from memory", async () => {
    await same();
    // The words weighed include topics found by one word holding another only in their bodies.
    const r = await retrieve(kept, ws, "mixed", {
      question: "invoice retry webhook timeout ledger",
      include_delivered: true,
      max_topics: 30,
    });
    expect(r.topics.some((t) => t.reasons.filter((x) => x.startsWith("text:")).length >= 3)).toBe(true);
  });

  test("the same answers after writes that move the topic version (title, status, drift, body, archive, a new topic)", async () => {
    const at = new Date(day(401));
    const write = async (t: Topic, patch: Partial<Topic>) => {
      const w = changeTopic(null, t, patch, "topic.updated", at);
      expect(await s.topics.update(w)).toBe("ok");
    };
    const anchored = topics.filter((t) => t.anchors.length > 0 && t.status !== "archived");
    await write(anchored[0]!, { title: "invoice renamed entirely" });
    await write(anchored[1]!, { status: "archived" });
    await write(anchored[2]!, { drift: { commit: "def", files: ["src/auth/login.ts"], at: day(401) } });
    await write(anchored[3]!, { body: "now about refund and ledger only" });
    await same();
    const t = topicFixture(ws.id, {
      title: "webhook timeout runbook",
      anchors: ["src/billing/**"],
      status: "reviewed",
      updated_at: day(402),
    });
    expect(await s.topics.insert({ topic: t, event: topicEvent(null, t, "topic.created", new Date(day(402))) })).toBe("ok");
    await same();
  });
});
