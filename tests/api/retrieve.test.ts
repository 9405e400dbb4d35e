import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGitCodeHost } from "../../adapters/git/code-host.ts";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { fit } from "../../core/code-context/retrieve.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import type { ConsumableJobQueue } from "../../core/jobs/ports.ts";
import { jobRunner } from "../../workers/registry.ts";
import { type Personas, personas } from "../support/personas.ts";
import { noDns } from "../support/resolver.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";

/** POST /topics/retrieve and GET /topics/audit over a real git repository linked by path. */
const root = mkdtempSync(join(tmpdir(), "retrieve-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(dir: string, ...args: string[]) {
  const r = Bun.spawnSync(
    ["git", "-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args],
    { stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

function makeRepo(files: Record<string, string>, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

function runRetrieveSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    let jobs: ConsumableJobQueue;
    let repoId: string;
    const ws = "/workspaces/agents";
    const session = { "x-service-session": "run-42" };
    const topics: Record<string, any> = {};

    beforeAll(async () => {
      jobs = createMemoryJobQueue(() => {});
      jobs.consume(jobRunner(() => t.core));
      t = await makeTestApp(await open(), {
        core: {
          codeHost: createGitCodeHost({
            cacheDir: join(root, `cache-${name.replace(/\W/g, "-")}`),
            localRoots: [root],
            allowPrivate: false,
            resolver: noDns,
          }),
          paths: picomatchMatcher,
          jobs,
        },
      });
      p = await personas(t, "agents");
      const dir = makeRepo(
        { "src/billing/invoice.ts": "x", "src/billing/tax.ts": "x", "src/auth/login.ts": "x", "README.md": "x" },
        `repo-${name.replace(/\W/g, "-")}`,
      );
      const repo = await t.call("POST", `${ws}/repos`, { key: p.owner, body: { provider: "git", full_name: "acme/app", clone_url: dir } });
      repoId = repo.body.id;
      await jobs.drain();
      const mk = async (key: string, body: Record<string, unknown>, approve = false) => {
        const res = await t.call("POST", `${ws}/topics`, { key: p.owner, body: { repo_id: repoId, status: "proposed", ...body } });
        if (res.status !== 201) throw new Error(`create ${key}: ${res.status} ${JSON.stringify(res.body)}`);
        if (approve) await t.call("POST", `${ws}/topics/${res.body.slug}/approve`, { key: p.owner });
        topics[key] = res.body;
      };
      await mk("invoices", {
        title: "How invoices are numbered",
        body: "Invoices take the next number. ".repeat(40),
        anchors: ["src/billing/**"],
      }, true);
      await mk("tax", { title: "Tax rules", body: "Tax is computed per line.", anchors: ["src/billing/tax.ts"] });
      await mk("ledger", { title: "The ledger", body: "Every invoice posts to the ledger." }, true);
      await mk("login", { title: "Login flow", body: "Sessions last a day.", anchors: ["src/auth/**"] });
      await mk("draft", { title: "Invoice ideas", body: "scratch", status: "draft" });
      await t.call("POST", `${ws}/topics/${topics.invoices.slug}/relations`, {
        key: p.owner,
        body: { type: "depends_on", target: topics.ledger.slug },
      });
    });

    describe("POST /topics/retrieve", () => {
      test("ranks file matches first, reviewed before proposed, then words, then one relation hop", async () => {
        const res = await t.call("POST", `${ws}/topics/retrieve`, {
          key: p.service,
          headers: { "x-service-session": "rank" },
          body: { paths: ["src/billing/tax.ts"], question: "Which number does an invoice take?" },
        });
        expect(res.status).toBe(201);
        const slugs = res.body.topics.map((x: any) => x.slug);
        expect(slugs.slice(0, 2)).toEqual([topics.invoices.slug, topics.tax.slug]);
        expect(slugs).toContain(topics.ledger.slug);
        expect(slugs).not.toContain(topics.draft.slug);
        expect(slugs).not.toContain(topics.login.slug);
        const first = res.body.topics[0];
        expect(first).toMatchObject({ trust: "reviewed", drifted: false, stale: false, approved_via: "human" });
        expect(first.reasons).toEqual(expect.arrayContaining(["file:src/billing/tax.ts", "text:number"]));
        const ledger = res.body.topics.find((x: any) => x.slug === topics.ledger.slug);
        expect(ledger.reasons.some((r: string) => r.startsWith("relation:") || r.startsWith("text:"))).toBe(true);
      });

      test("fits the budget, and does not send a session the same text twice", async () => {
        const small = await t.call("POST", `${ws}/topics/retrieve`, {
          key: p.member,
          headers: session,
          body: { paths: ["src/billing/invoice.ts"], budget_tokens: 200 },
        });
        expect(small.body.used_tokens).toBeLessThanOrEqual(200);
        expect(small.body.topics[0]).toMatchObject({ slug: topics.invoices.slug, truncated: true });
        const again = await t.call("POST", `${ws}/topics/retrieve`, {
          key: p.member,
          headers: session,
          body: { paths: ["src/billing/invoice.ts"], budget_tokens: 200 },
        });
        expect(again.body.topics.map((x: any) => x.slug)).not.toContain(topics.invoices.slug);
        expect(again.body.skipped_delivered).toContain(topics.invoices.slug);
        const asked = await t.call("POST", `${ws}/topics/retrieve`, {
          key: p.member,
          headers: session,
          body: { paths: ["src/billing/invoice.ts"], include_delivered: true },
        });
        expect(asked.body.topics.map((x: any) => x.slug)).toContain(topics.invoices.slug);
        // A changed topic is sent again.
        await t.call("PATCH", `${ws}/topics/${topics.tax.slug}`, { key: p.owner, body: { body: "Tax is rounded per invoice." } });
        const changed = await t.call("POST", `${ws}/topics/retrieve`, {
          key: p.member,
          headers: session,
          body: { paths: ["src/billing/tax.ts"] },
        });
        expect(changed.body.topics.find((x: any) => x.slug === topics.tax.slug)?.text).toBe("Tax is rounded per invoice.");
      });

      test("needs the session header, a question or paths, and a strict body", async () => {
        expect((await t.call("POST", `${ws}/topics/retrieve`, { key: p.member, body: { question: "x" } })).status).toBe(400);
        for (
          const body of [{}, { question: "" }, { question: "x", budget_tokens: 10 }, { question: "x", colour: 1 }, { paths: ["/abs"] }]
        ) {
          expect((await t.call("POST", `${ws}/topics/retrieve`, { key: p.member, headers: session, body })).status, JSON.stringify(body))
            .toBe(
              400,
            );
        }
        expect((await t.call("POST", `${ws}/watchers/retrieve`, { key: p.member, headers: session, body: { question: "ledger" } })).status)
          .toBe(201);
      });

      test("fit() cuts at a boundary and says so", () => {
        expect(fit("short", 100)).toEqual({ text: "short", truncated: false });
        const cut = fit("one two three four five six seven eight", 20);
        expect(cut.truncated).toBe(true);
        expect(cut.text.length).toBeLessThanOrEqual(20);
        expect(cut.text.endsWith("…")).toBe(true);
      });
    });

    describe("GET /topics/audit", () => {
      test("counts what weakens the knowledge, names the worst offenders, and scores it", async () => {
        const before = await t.call("GET", `${ws}/topics/audit`, { key: p.member });
        expect(before.status).toBe(200);
        await t.call("POST", `${ws}/topics`, { key: p.service, body: { title: "Nobody's", anchors: ["lib/**"] } });
        await t.call("POST", `${ws}/topics`, {
          key: p.owner,
          body: { title: "Gone files", repo_id: repoId, anchors: ["src/payments/**"] },
        });
        await t.call("POST", `${ws}/topics/mark-drift`, { key: p.member, body: { paths: ["src/auth/login.ts"], commit: "abc123" } });
        const res = await t.call("GET", `${ws}/topics/audit`, { key: p.member });
        expect(res.status).toBe(200);
        expect(res.body.topics).toMatchObject({ drifted: 1, no_owner: 1 });
        expect(res.body.anchors).toMatchObject({ zero: 1, orphaned: 1, sampled: false });
        expect(res.body.offenders.drifted.map((o: any) => o.slug)).toEqual([topics.login.slug]);
        expect(res.body.offenders.zero_anchors[0]).toMatchObject({ title: "Gone files", detail: "src/payments/**" });
        expect(res.body.offenders.orphaned_anchors[0]).toMatchObject({ title: "Nobody's", detail: "no repo linked" });
        expect(res.body.score).toBeLessThan(before.body.score);
        expect((await t.call("GET", `${ws}/watchers/audit`, { key: p.member })).body.score).toBe(res.body.score);
      });
    });
  });
}

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

// Memory reads as it always did; PGlite ranks on the heads kept under the topic version (ADR 048).
runRetrieveSuite("retrieve on memory", async () => createMemoryStores());
runRetrieveSuite("retrieve on pglite", async () => pglite);
