import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createGitCodeHost } from "../../adapters/git/code-host.ts";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { hubSignature } from "../../core/webhooks/signature.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import type { ConsumableJobQueue } from "../../core/jobs/ports.ts";
import { jobRunner } from "../../workers/registry.ts";
import { type Personas, personas } from "../support/personas.ts";
import { noDns } from "../support/resolver.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/**
 * Code context over HTTP (docs/decisions/010-code-context.md), against REAL git repositories made
 * in a temp dir and linked by local path: anchor validation, orphaned anchors, match-files, drift,
 * and the signed code-host webhook. Runs on the reference store and on PGlite (the server's default).
 */
const SECRET = "webhook-secret-for-tests";
const root = mkdtempSync(join(tmpdir(), "codectx-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(dir: string, ...args: string[]): string {
  const r = Bun.spawnSync([
    "git",
    "-C",
    dir,
    "-c",
    "user.name=Test",
    "-c",
    "user.email=test@example.com",
    "-c",
    "commit.gpgsign=false",
    ...args,
  ], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** A git repository on branch `main` with `files` committed; returns its path. */
function makeRepo(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  commitFiles(dir, files, "initial");
  return dir;
}

function commitFiles(dir: string, files: Record<string, string>, message: string, remove: string[] = []): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  for (const path of remove) git(dir, "rm", "-q", path);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

const generated: Record<string, string> = {};
for (let i = 0; i < 600; i++) generated[`gen/file-${String(i).padStart(3, "0")}.ts`] = `export const n = ${i};\n`;

function runCodeContextSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    let jobs: ConsumableJobQueue;
    let apiDir: string;
    let apiRepoId: string;
    const slug = `cc-${name.includes("pglite") ? "pg" : "mem"}`;
    const ws = `/workspaces/${slug}`;

    beforeAll(async () => {
      jobs = createMemoryJobQueue(() => {});
      jobs.consume(jobRunner(() => t.core));
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), {
        core: {
          codeHost: createGitCodeHost({ cacheDir: join(root, `cache-${slug}`), localRoots: [root], allowPrivate: false, resolver: noDns }),
          paths: picomatchMatcher,
          jobs,
        },
        codeHostWebhookSecret: SECRET,
      });
      p = await personas(t, slug);
      apiDir = makeRepo(`${slug}-api`, {
        "README.md": "# api\n",
        "docs/intro.md": "intro\n",
        "src/billing/invoice.ts": "export {};\n",
        "src/billing/tax.ts": "export {};\n",
        "src/auth/login.ts": "export {};\n",
        "src/auth/session.ts": "export {};\n",
        ...generated,
      });
      const repo = await t.call("POST", `${ws}/repos`, {
        key: p.owner,
        body: { provider: "github", full_name: `acme/${slug}-api`, clone_url: apiDir },
      });
      expect(repo.status).toBe(201);
      apiRepoId = repo.body.id;
      await jobs.drain();
    });
    afterAll(async () => {
      await jobs.close();
    });

    async function create(body: Record<string, unknown>, base = "/topics", key = p.member) {
      const res = await t.call("POST", `${ws}${base}`, { key, body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }
    const act = (topic: string, action: string, key = p.owner) => t.call("POST", `${ws}/topics/${topic}/${action}`, { key });

    async function webhook(payload: unknown, opts: { event?: string; delivery?: string; signature?: string | null } = {}) {
      const raw = JSON.stringify(payload);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-github-event": opts.event ?? "push",
        "x-github-delivery": opts.delivery ?? crypto.randomUUID(),
      };
      const signature = opts.signature === undefined ? await hubSignature(SECRET, new TextEncoder().encode(raw)) : opts.signature;
      if (signature !== null) headers["x-hub-signature-256"] = signature;
      return t.call("POST", "/webhooks/code-host", { rawBody: raw, headers });
    }

    test("linking a repo indexes its default branch in the background", async () => {
      const index = await t.call("GET", `${ws}/repos/${apiRepoId}/index`, { key: p.member });
      expect(index.status).toBe(200);
      expect(index.body).toMatchObject({ repo_id: apiRepoId, indexed: true, commit: git(apiDir, "rev-parse", "HEAD"), file_count: 606 });
    });

    test("create answers anchor_validation: ok, overbroad and zero, with samples and warnings", async () => {
      const topic = await create({
        title: "Billing",
        repo_id: apiRepoId,
        anchors: ["src/billing/**", "gen/**", "nothing/here/**", "src/{broken", "src/auth"],
      });
      const v = topic.anchor_validation;
      expect(v).toMatchObject({ repo_id: apiRepoId, commit: git(apiDir, "rev-parse", "HEAD"), file_count: 606, warnings: [] });
      expect(v.anchors.map((a: any) => [a.pattern, a.matches, a.rating])).toEqual([
        ["src/billing/**", 2, "ok"],
        ["gen/**", 600, "overbroad"],
        ["nothing/here/**", 0, "zero"],
        ["src/{broken", 0, "zero"],
        ["src/auth", 0, "zero"],
      ]);
      expect(v.anchors[0].samples).toEqual(["src/billing/invoice.ts", "src/billing/tax.ts"]);
      expect(v.anchors[1].samples).toEqual(["gen/file-000.ts", "gen/file-001.ts", "gen/file-002.ts", "gen/file-003.ts", "gen/file-004.ts"]);
      expect(v.anchors[1].warnings.join(" ")).toContain("600 of 606");
      expect(v.anchors[3].warnings[0]).toStartWith("Cannot compile pattern");
      expect(v.anchors[4].warnings[0]).toContain("src/auth/**");
      // Advisory: the topic was written with every anchor.
      expect(topic.anchors).toHaveLength(5);
      expect((await t.call("GET", `${ws}/topics/${topic.slug}`, { key: p.member })).body.anchor_validation).toBeUndefined();
    });

    test("update answers anchor_validation too (also under /watchers); without a repo it is omitted", async () => {
      const topic = await create({ title: "Later linked", anchors: ["docs/**"] });
      expect(topic.anchor_validation).toBeUndefined();
      const linked = await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { repo_id: apiRepoId } });
      expect(linked.status).toBe(200);
      expect(linked.body.anchor_validation.anchors).toEqual([{
        pattern: "docs/**",
        matches: 1,
        rating: "ok",
        samples: ["docs/intro.md"],
        warnings: [],
      }]);
      const viaAlias = await t.call("PATCH", `${ws}/watchers/${topic.slug}`, { key: p.member, body: { anchors: ["*.md", "src/**/*.ts"] } });
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.headers.get("deprecation")).toBeString();
      expect(viaAlias.body.anchor_validation.anchors.map((a: any) => [a.pattern, a.matches])).toEqual([
        ["*.md", 1],
        ["src/**/*.ts", 4],
      ]);
      const created = await create({ title: "Via alias", repo_id: apiRepoId, anchors: ["README.md"] }, "/watchers");
      expect(created.anchor_validation.anchors[0]).toMatchObject({ matches: 1, rating: "ok" });
      const unlinked = await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { repo_id: null } });
      expect(unlinked.body.anchor_validation).toBeUndefined();
    });

    test("a repo without an index yet is indexed once on the spot; one that cannot be read only warns", async () => {
      const dir = makeRepo(`${slug}-fresh`, { "lib/a.py": "", "lib/b.py": "" });
      // Linked without a job queue draining it yet: the write builds the index itself.
      const repo = await t.call("POST", `${ws}/repos`, {
        key: p.admin,
        body: { provider: "git", full_name: `local/${slug}-fresh`, clone_url: dir },
      });
      const topic = await create({ title: "Fresh", repo_id: repo.body.id, anchors: ["lib/*.py"] });
      expect(topic.anchor_validation).toMatchObject({
        commit: git(dir, "rev-parse", "HEAD"),
        anchors: [{ pattern: "lib/*.py", matches: 2, rating: "ok" }],
      });

      const broken = await t.call("POST", `${ws}/repos`, {
        key: p.admin,
        body: { provider: "git", full_name: `local/${slug}-missing`, clone_url: join(root, "does-not-exist") },
      });
      expect(broken.status).toBe(201);
      const res = await t.call("POST", `${ws}/topics`, {
        key: p.member,
        body: { title: "Unreadable", repo_id: broken.body.id, anchors: ["src/**"] },
      });
      expect(res.status).toBe(201);
      expect(res.body.anchor_validation).toMatchObject({ repo_id: broken.body.id, commit: null, anchors: [] });
      expect(res.body.anchor_validation.warnings[0]).toContain("no file index yet");
      await jobs.drain();
    });

    test("include_orphaned lists anchors that match nothing after a commit deletes their files and the index is refreshed", async () => {
      const dir = makeRepo(`${slug}-orphans`, { "src/auth/login.ts": "", "src/auth/logout.ts": "", "docs/auth.md": "" });
      const repo = await t.call("POST", `${ws}/repos`, {
        key: p.owner,
        body: { provider: "gitlab", full_name: `acme/${slug}-orphans`, clone_url: dir },
      });
      await jobs.drain();
      const topic = await create({ title: "Auth", repo_id: repo.body.id, anchors: ["src/auth/**", "docs/auth.md"] });
      const before = await t.call("GET", `${ws}/topics/${topic.slug}?include_orphaned=true`, { key: p.member });
      expect(before.body.orphaned_anchors).toEqual([]);
      expect((await t.call("GET", `${ws}/topics/${topic.slug}`, { key: p.member })).body.orphaned_anchors).toBeUndefined();

      const head = commitFiles(dir, { "lib/session.ts": "" }, "move auth away", ["src/auth/login.ts", "src/auth/logout.ts"]);
      expect((await t.call("POST", `${ws}/repos/${repo.body.id}/refresh`, { key: p.member })).status).toBe(403);
      const refresh = await t.call("POST", `${ws}/repos/${repo.body.id}/refresh`, { key: p.admin });
      expect(refresh.status).toBe(201);
      expect(refresh.body).toMatchObject({ repo_id: repo.body.id, refresh: "queued", indexed: true });
      await jobs.drain();
      expect((await t.call("GET", `${ws}/repos/${repo.body.id}/index`, { key: p.member })).body).toMatchObject({
        commit: head,
        file_count: 2,
      });
      const after = await t.call("GET", `${ws}/topics/${topic.slug}?include_orphaned=true`, { key: p.member });
      expect(after.body.orphaned_anchors).toEqual(["src/auth/**"]);
      const alias = await t.call("GET", `${ws}/watchers/${topic.slug}?include_orphaned=true`, { key: p.member });
      expect(alias.body.orphaned_anchors).toEqual(["src/auth/**"]);
    });

    test("match-files requires x-service-session, and lists each file's topics reviewed first", async () => {
      const draft = await create({ title: "Invoices, draft notes", repo_id: apiRepoId, anchors: ["src/billing/invoice.ts"] });
      const reviewed = await create({ title: "Billing, reviewed", repo_id: apiRepoId, anchors: ["src/billing/*.ts", "docs/**"] });
      expect((await act(reviewed.slug, "approve")).status).toBe(201);
      const archived = await create({ title: "Old billing", repo_id: apiRepoId, anchors: ["src/billing/**"] });
      await act(archived.slug, "archive", p.member);

      const body = { paths: ["src/billing/invoice.ts", "./docs/intro.md", "src/unknown.rs"], repo_id: apiRepoId };
      const missing = await t.call("POST", `${ws}/topics/match-files`, { key: p.service, body });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe("VALIDATION_FAILED");
      const empty = await t.call("POST", `${ws}/topics/match-files`, { key: p.service, body, headers: { "x-service-session": "" } });
      expect(empty.status).toBe(400);

      for (const base of ["/topics", "/watchers"]) {
        const res = await t.call("POST", `${ws}${base}/match-files`, {
          key: p.service,
          body,
          headers: { "x-service-session": "agent-run-1" },
        });
        expect(res.status).toBe(201);
        expect(res.body.truncated).toBe(false);
        const [invoice, intro, unknown] = res.body.files;
        const mine = (f: any) => f.topics.filter((x: any) => [draft.id, reviewed.id, archived.id].includes(x.id));
        expect(mine(invoice).map((x: any) => [x.slug, x.trust, x.matched_anchors])).toEqual([
          [reviewed.slug, "reviewed", ["src/billing/*.ts"]],
          [draft.slug, "draft", ["src/billing/invoice.ts"]],
        ]);
        expect(mine(invoice)[0]).toMatchObject({
          status: "reviewed",
          drifted: false,
          stale: false,
          approved_via: "human",
          title: "Billing, reviewed",
        });
        expect(intro.path).toBe("docs/intro.md");
        expect(mine(intro).map((x: any) => x.slug)).toEqual([reviewed.slug]);
        expect(unknown).toEqual({ path: "src/unknown.rs", total: 0, topics: [] });
        expect(res.body.view).toBe("full");
      }
      const bad = await t.call("POST", `${ws}/topics/match-files`, {
        key: p.service,
        body: { paths: [] },
        headers: { "x-service-session": "s" },
      });
      expect(bad.status).toBe(400);
      const noRepo = await t.call("POST", `${ws}/topics/match-files`, {
        key: p.service,
        body: { paths: ["a"], repo_id: "01939a3e-0000-7000-8000-000000000000" },
        headers: { "x-service-session": "s" },
      });
      expect(noRepo.status).toBe(400);
    });

    test("match-files answers from the anchors as last written: a new topic, a moved anchor, a relinked repo, an archived topic", async () => {
      const session = { "x-service-session": "agent-run-fresh" };
      const match = async (path: string) => {
        const res = await t.call("POST", `${ws}/topics/match-files`, {
          key: p.service,
          body: { paths: [path], repo_id: apiRepoId },
          headers: session,
        });
        expect(res.status).toBe(201);
        return res.body.files[0].topics.map((x: any) => [x.slug, x.matched_anchors]);
      };
      const path = "src/fresh/cache.ts";
      expect(await match(path)).toEqual([]); // the workspace's anchors are now held between requests
      const topic = await create({ title: "Fresh cache", repo_id: apiRepoId, anchors: ["src/fresh/*.ts"] });
      expect(await match(path)).toEqual([[topic.slug, ["src/fresh/*.ts"]]]);
      const moved = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
        key: p.member,
        body: { anchors: ["lib/**", "src/fresh/cache.ts"] },
      });
      expect(moved.status).toBe(200);
      expect(await match(path)).toEqual([[topic.slug, ["src/fresh/cache.ts"]]]);
      expect(await match("lib/x.ts")).toEqual([[topic.slug, ["lib/**"]]]);
      const unlinked = await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { repo_id: null } });
      expect(unlinked.status).toBe(200);
      expect(await match(path)).toEqual([]);
      await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { repo_id: apiRepoId } });
      expect(await match(path)).toEqual([[topic.slug, ["src/fresh/cache.ts"]]]);
      expect((await act(topic.slug, "archive", p.member)).status).toBe(201);
      expect(await match(path)).toEqual([]);
    });

    test("match-files lists each file's first limit_per_file topics in match order, counts them all, and answers both views", async () => {
      const session = { "x-service-session": "agent-run-limits" };
      const match = (body: Record<string, unknown>) =>
        t.call("POST", `${ws}/topics/match-files`, { key: p.service, body: { repo_id: apiRepoId, ...body }, headers: session });
      // Five topics on one file (one reviewed, one proposed, three drafts, created in that order), two of them on a second file too.
      const reviewed = await create({ title: "Limits reviewed", repo_id: apiRepoId, anchors: ["src/limits/*.ts"] });
      expect((await act(reviewed.slug, "approve")).status).toBe(201);
      const proposed = await create({ title: "Limits proposed", repo_id: apiRepoId, anchors: ["src/limits/a.ts"], status: "proposed" });
      const drafts = [];
      for (const n of [1, 2, 3]) {
        drafts.push(
          await create({ title: `Limits draft ${n}`, repo_id: apiRepoId, anchors: n === 3 ? ["src/limits/**/*.ts"] : ["src/limits/a.ts"] }),
        );
      }
      // Match order: reviewed, proposed, then drafts most recently updated first.
      const order = [reviewed, proposed, drafts[2], drafts[1], drafts[0]].map((x) => x.slug);
      const paths = ["src/limits/a.ts", "src/limits/b.ts", "src/limits/none.md"];

      const all = await match({ paths, limit_per_file: 200 });
      expect(all.status).toBe(201);
      expect(all.body.files.map((f: any) => [f.path, f.total, f.topics.map((x: any) => x.slug)])).toEqual([
        ["src/limits/a.ts", 5, order],
        ["src/limits/b.ts", 2, [reviewed.slug, drafts[2].slug]],
        ["src/limits/none.md", 0, []],
      ]);

      const cut = await match({ paths, limit_per_file: 2 });
      expect(cut.status).toBe(201);
      expect(cut.body.view).toBe("full");
      const [a, b, none] = cut.body.files;
      expect([a.total, a.topics.map((x: any) => x.slug)]).toEqual([5, order.slice(0, 2)]);
      expect(a.total > a.topics.length).toBe(true);
      expect([b.total, b.topics.map((x: any) => x.slug)]).toEqual([2, [reviewed.slug, drafts[2].slug]]);
      expect(none).toEqual({ path: "src/limits/none.md", total: 0, topics: [] });
      expect(a.topics[0]).toEqual({
        id: reviewed.id,
        slug: reviewed.slug,
        title: "Limits reviewed",
        trust: "reviewed",
        status: "reviewed",
        drifted: false,
        stale: false,
        approved_via: "human",
        matched_anchors: ["src/limits/*.ts"],
      });

      // Compact: each listed topic's head once, in match order; per file only ids and anchors, the same lists.
      const compact = await match({ paths, limit_per_file: 2, view: "compact" });
      expect(compact.status).toBe(201);
      expect(compact.body.view).toBe("compact");
      expect(compact.body.truncated).toBe(false);
      expect(compact.body.topics.map((x: any) => x.slug)).toEqual([reviewed.slug, proposed.slug, drafts[2].slug]);
      const { matched_anchors: _, ...head } = a.topics[0];
      expect(compact.body.topics[0]).toEqual(head);
      expect(compact.body.files).toEqual(
        cut.body.files.map((f: any) => ({
          path: f.path,
          total: f.total,
          matches: f.topics.map((x: any) => ({ id: x.id, matched_anchors: x.matched_anchors })),
        })),
      );

      // Default limit: 20 per file.
      for (let i = 0; i < 16; i++) await create({ title: `Limits bulk ${i}`, repo_id: apiRepoId, anchors: ["src/limits/a.ts"] });
      const byDefault = await match({ paths: ["src/limits/a.ts"], view: "compact" });
      expect(byDefault.body.files[0].total).toBe(21);
      expect(byDefault.body.files[0].matches).toHaveLength(20);
      expect(byDefault.body.topics).toHaveLength(20);
      expect(byDefault.body.topics.slice(0, 2).map((x: any) => x.slug)).toEqual([reviewed.slug, proposed.slug]);

      for (const bad of [{ limit_per_file: 0 }, { limit_per_file: 201 }, { limit_per_file: 2.5 }, { view: "summary" }]) {
        const res = await match({ paths, ...bad });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
      }
    });

    test("mark-drift marks the anchored topics with the evidence; drifted list first; vouch-ack clears it", async () => {
      const dir = makeRepo(`${slug}-drift`, { "pay/charge.go": "", "pay/refund.go": "", "web/app.tsx": "" });
      const repo = await t.call("POST", `${ws}/repos`, {
        key: p.owner,
        body: { provider: "github", full_name: `acme/${slug}-drift`, clone_url: dir },
      });
      const pay = await create({ title: "Payments", repo_id: repo.body.id, anchors: ["pay/**"] });
      const web = await create({ title: "Web app", repo_id: repo.body.id, anchors: ["web/**"] });
      await act(pay.slug, "approve");
      await act(web.slug, "approve");

      const res = await t.call("POST", `${ws}/topics/mark-drift`, {
        key: p.member,
        body: { paths: ["pay/charge.go", "pay/refund.go", "other/x.c"], commit: "abc1234", repo_id: repo.body.id },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ marked: [{ id: pay.id, slug: pay.slug }], count: 1, truncated: false });

      const read = await t.call("GET", `${ws}/topics/${pay.slug}`, { key: p.member });
      expect(read.body).toMatchObject({
        drifted: true,
        status: "reviewed",
        drift: { commit: "abc1234", files: ["pay/charge.go", "pay/refund.go"] },
      });
      const list = await t.call("GET", `${ws}/topics?view=compact&limit=200`, { key: p.member });
      const drifted = list.body.topics.filter((x: any) => x.drifted);
      expect(list.body.topics.slice(0, drifted.length).every((x: any) => x.drifted)).toBe(true);
      expect(drifted.map((x: any) => x.slug)).toContain(pay.slug);
      expect(list.body.topics.find((x: any) => x.slug === web.slug).drifted).toBe(false);
      const events = await t.call("GET", `${ws}/topics/events?type=topic.drifted`, { key: p.member });
      expect(events.body.events[0]).toMatchObject({ topic_id: pay.id, type: "topic.drifted", data: { commit: "abc1234" } });

      // The alias too; without repo_id any repo's topics match.
      const again = await t.call("POST", `${ws}/watchers/mark-drift`, { key: p.member, body: { paths: ["web/app.tsx"] } });
      expect(again.status).toBe(201);
      expect(again.body.marked.map((x: any) => x.slug)).toEqual([web.slug]);

      const cleared = await act(pay.slug, "vouch-ack");
      expect(cleared.body).toMatchObject({ drifted: false, drift: null });
      expect((await t.call("GET", `${ws}/topics/${pay.slug}`, { key: p.member })).body.drifted).toBe(false);
      expect((await t.call("POST", `${ws}/topics/mark-drift`, { key: p.member, body: { paths: ["x"], colour: 1 } })).status).toBe(400);
    });

    describe("code-host webhook", () => {
      let dir: string;
      let repoId: string;
      let fullName: string;
      let topicSlug: string;
      const push = (after: string, modified: string[], ref = "refs/heads/main") => ({
        ref,
        before: "0".repeat(40),
        after,
        repository: { full_name: fullName, name: "hooked" },
        commits: [{ id: after, added: [], modified, removed: [] }],
      });

      beforeAll(async () => {
        fullName = `acme/${slug}-hooked`;
        dir = makeRepo(`${slug}-hooked`, { "core/engine.rs": "", "core/io.rs": "", "ui/main.ts": "" });
        const repo = await t.call("POST", `${ws}/repos`, {
          key: p.owner,
          body: { provider: "github", full_name: fullName, clone_url: dir },
        });
        repoId = repo.body.id;
        await jobs.drain();
        topicSlug = (await create({ title: "Engine", repo_id: repoId, anchors: ["core/**"] })).slug;
        await act(topicSlug, "approve");
      });

      const topic = async () => (await t.call("GET", `${ws}/topics/${topicSlug}`, { key: p.member })).body;
      const index = async () => (await t.call("GET", `${ws}/repos/${repoId}/index`, { key: p.member })).body;

      test("a bad or missing signature is 401 and changes nothing", async () => {
        const head = commitFiles(dir, { "core/engine.rs": "fn main() {}\n" }, "edit engine");
        const before = await index();
        const forged = await webhook(push(head, ["core/engine.rs"]), { signature: `sha256=${"0".repeat(64)}` });
        expect(forged.status).toBe(401);
        expect(forged.body.error.code).toBe("UNAUTHENTICATED");
        expect((await webhook(push(head, ["core/engine.rs"]), { signature: null })).status).toBe(401);
        const otherSecret = await hubSignature("another-secret", new TextEncoder().encode(JSON.stringify(push(head, ["core/engine.rs"]))));
        expect((await webhook(push(head, ["core/engine.rs"]), { signature: otherSecret })).status).toBe(401);
        await jobs.drain();
        expect(await index()).toEqual(before);
        expect((await topic()).drifted).toBe(false);
      });

      test("the receiver verifies the bytes sent, which the JSON parser leaves alone; other routes still get the strict parser", async () => {
        // Spacing, escapes and a U+0000 the JSON parser would refuse: signed as sent, they verify.
        const raw = '{ "zen" : "nul \\u0000 and caf\\u00e9",\n  "hook_id" : 1 }';
        const signed = async (body: string, over = body, event = "ping") => ({
          "content-type": "application/json",
          "x-github-event": event,
          "x-github-delivery": crypto.randomUUID(),
          "x-hub-signature-256": await hubSignature(SECRET, new TextEncoder().encode(over)),
        });
        const pong = await t.call("POST", "/webhooks/code-host", { rawBody: raw, headers: await signed(raw) });
        expect(pong.status).toBe(200);
        expect(pong.body).toMatchObject({ event: "ping", outcome: "pong" });
        // Signed over the same document re-serialised: not the bytes sent, so refused.
        const reserialised = JSON.stringify(JSON.parse(raw));
        expect((await t.call("POST", "/webhooks/code-host", { rawBody: raw, headers: await signed(raw, reserialised) })).status).toBe(401);
        // A signed push that is not JSON: the receiver's own 400, after the signature held.
        const broken = '{"ref":';
        const bad = await t.call("POST", "/webhooks/code-host", { rawBody: broken, headers: await signed(broken, broken, "push") });
        expect(bad.status).toBe(400);
        expect(bad.body.error.code).toBe("VALIDATION_FAILED");

        // Any other route: U+0000 and malformed JSON are refused by the parser, as before.
        const json = { "content-type": "application/json" };
        const nul = await t.call("POST", `${ws}/topics`, { key: p.member, rawBody: '{"title":"a\\u0000b"}', headers: json });
        expect(nul.status).toBe(400);
        expect(nul.body.error.message).toContain("U+0000");
        const malformed = await t.call("POST", `${ws}/topics`, { key: p.member, rawBody: '{"title":', headers: json });
        expect(malformed.status).toBe(400);
        expect(malformed.body.error.code).toBe("VALIDATION_FAILED");
      });

      test("a ping answers 200", async () => {
        const res = await webhook({ zen: "Keep it logically awesome.", hook_id: 1 }, { event: "ping" });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ received: true, event: "ping", outcome: "pong" });
      });

      test("a signed push refreshes the repo's index and marks the anchored topics drifted with the commit", async () => {
        const head = commitFiles(dir, { "core/io.rs": "// io\n", "core/net.rs": "" }, "edit io");
        const res = await webhook({
          ...push(head, ["core/io.rs"]),
          commits: [{ id: head, added: ["core/net.rs"], modified: ["core/io.rs"], removed: [] }],
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ received: true, event: "push", outcome: "processed", repos: 1, drifted: 1 });
        await jobs.drain();
        expect(await index()).toMatchObject({ commit: head, file_count: 4 });
        expect((await topic()).drift).toMatchObject({ commit: head, files: ["core/net.rs", "core/io.rs"] });
        expect((await act(topicSlug, "vouch-ack")).body.drifted).toBe(false);
      });

      test("a redelivered push (same delivery id) takes effect once", async () => {
        const head = commitFiles(dir, { "core/engine.rs": "fn main() { run() }\n" }, "edit engine again");
        const delivery = crypto.randomUUID();
        const first = await webhook(push(head, ["core/engine.rs"]), { delivery });
        expect(first.body).toMatchObject({ outcome: "processed", drifted: 1 });
        const version = (await topic()).version;
        expect((await act(topicSlug, "vouch-ack")).status).toBe(201);
        const second = await webhook(push(head, ["core/engine.rs"]), { delivery });
        expect(second.status).toBe(200);
        expect(second.body).toMatchObject({ outcome: "duplicate", repos: 0, drifted: 0 });
        expect(await topic()).toMatchObject({ drifted: false, version: version + 1 });
        await jobs.drain();
      });

      test("a push to another branch, or of another repository, changes nothing", async () => {
        const other = await webhook(push("f".repeat(40), ["core/engine.rs"], "refs/heads/feature"));
        expect(other.body).toMatchObject({ outcome: "processed", repos: 0, drifted: 0 });
        const stranger = await webhook({ ...push("f".repeat(40), ["core/engine.rs"]), repository: { full_name: "nobody/nothing" } });
        expect(stranger.body).toMatchObject({ repos: 0, drifted: 0 });
        expect((await topic()).drifted).toBe(false);
        const malformed = await webhook({ ref: 1 });
        expect(malformed.status).toBe(400);
      });
    });
  });
}

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runCodeContextSuite("code context on memory", async () => createMemoryStores());
runCodeContextSuite("code context on pglite", async () => pglite);

describe("code-host webhook without a secret", () => {
  test("POST /webhooks/code-host answers 404 when CODE_HOST_WEBHOOK_SECRET is not set", async () => {
    const t = await makeTestApp();
    const res = await t.call("POST", "/webhooks/code-host", {
      rawBody: "{}",
      headers: { "content-type": "application/json", "x-github-event": "ping" },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain("CODE_HOST_WEBHOOK_SECRET");
  });
});
