/**
 * A deterministic synthetic monorepo of `count` files (default 50,000), and a real git repository
 * holding it: what the code-context benchmarks (`POST /topics/match-files`, `POST /topics/retrieve`)
 * link as the topics' repo.
 *
 * Layout (every path unique, sorted; depth 3 to 6 but for 6 root files):
 * - `services/<svc>/src/<module>/<file>.ts`, sometimes one level deeper
 *   (`services/<svc>/src/<module>/<sub>/<file>.ts`); `services/<svc>/test/<module>/<file>.test.ts`
 *   for about 40% of the sources; `services/<svc>/migrations/<nnnn>_<words>.sql`;
 *   `services/<svc>/docs/<page>.md`; `README.md`, `package.json`, `tsconfig.json`, `Dockerfile`.
 * - `packages/<pkg>/src/<dir>/<file>.ts`, `packages/<pkg>/test/<file>.test.ts`, a README.
 * - `docs/<area>/<page>.md` and `docs/<area>/<section>/<page>.md`.
 * - `infra/terraform/<env>/<module>/<file>.tf`, `infra/k8s/<svc>/<file>.yaml`.
 * - `.github/workflows/*.yml`, `tools/scripts/*.sh`, a few root files.
 *
 * Directory sizes are drawn at random (seeded sfc32), then scaled so that the total is exactly
 * `count`: the same count gives the same paths.
 *
 * The git repository is made by `git fast-import` (one commit on `main`, a handful of tiny blobs
 * shared by every file of an extension, no working tree written): 50,000 files take well under a
 * second that way, where writing them and `git add` takes seconds (`bun
 * bench/datasets/repo-files.ts [count] --compare` measures both).
 *
 * `bun bench/datasets/repo-files.ts [count]` generates, creates the repo in a temp dir, prints
 * what it made and how long it took, and removes the repo.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Random } from "./topics.ts";
import { CONTENT_WORDS } from "./vocabulary.ts";

export const DEFAULT_REPO_FILES = 50_000;
export const REPO_SEED = 0x5e9f11e5;

/** Where anchors of topics point: a service, a package, a docs area, an infra stack. */
export interface RepoUnit {
  kind: "service" | "package" | "docs" | "infra" | "tooling";
  /** `services/billing`, `packages/ui-kit`, `docs/runbooks`, `infra/terraform/prod`. */
  root: string;
  /** The unit's files, in generation order. */
  files: string[];
}

export interface RepoLayout {
  count: number;
  /** Every path, sorted (as `git ls-tree` lists them). */
  files: string[];
  units: RepoUnit[];
}

const SERVICES = `billing payments checkout invoices auth identity search notifications orders inventory
  shipping catalog pricing promotions accounts gateway ledger reporting analytics scheduler webhooks
  email sms exports imports audit compliance risk fraud subscriptions onboarding profiles media
  uploads recommendations ranking feeds chat support admin`.split(/\s+/);
const PACKAGES = `ui-kit http-client logger config errors metrics tracing auth-sdk db-client queue-client
  cache feature-flags i18n validation money dates ids testing fixtures eslint-config tsconfig
  design-tokens icons forms charts tables router state storage`.split(/\s+/);
const DOC_AREAS = `architecture runbooks onboarding adr api guides postmortems security oncall
  product data platform`.split(/\s+/);
const ENVS = ["dev", "staging", "prod", "shared"];
const SUBDIRS = ["handlers", "internal", "adapters", "models", "queries", "jobs"];
const WORDS = CONTENT_WORDS.filter((w) => w.length >= 3);

/** Files per directory are drawn in [min, max] and multiplied by the layout's scale. */
function scaled(random: Random, min: number, max: number, scale: number): number {
  return Math.max(1, Math.round(random.int(min, max) * scale));
}

/** Distinct names in one directory: `retry.ts`, `invoice-retry.ts`, then numbered. */
class Names {
  readonly #used = new Set<string>();
  constructor(private readonly random: Random) {}

  next(ext: string, twoWords = 0.6): string {
    for (let attempt = 0; attempt < 20; attempt++) {
      const a = this.random.pick(WORDS);
      const stem = this.random.chance(twoWords) ? `${a}-${this.random.pick(WORDS)}` : a;
      const name = `${stem}${ext}`;
      if (!this.#used.has(name)) {
        this.#used.add(name);
        return name;
      }
    }
    for (let n = 2;; n++) {
      const name = `${this.random.pick(WORDS)}-${n}${ext}`;
      if (!this.#used.has(name)) {
        this.#used.add(name);
        return name;
      }
    }
  }
}

function pickDistinct(random: Random, from: readonly string[], n: number): string[] {
  const pool = [...from];
  const out: string[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]!);
  return out;
}

/** One draw of the layout at `scale` (files per directory multiplied by it). */
function draw(scale: number, seed: number): RepoUnit[] {
  const random = new Random(seed);
  const units: RepoUnit[] = [];

  for (const svc of SERVICES) {
    const root = `services/${svc}`;
    const files = ["README.md", "package.json", "tsconfig.json", "Dockerfile"].map((f) => `${root}/${f}`);
    const modules = pickDistinct(random, WORDS, random.int(10, 30));
    const sources: string[] = [];
    for (const module of modules) {
      const dir = `${root}/src/${module}`;
      const names = new Names(random);
      const n = scaled(random, 4, 36, scale);
      for (let i = 0; i < n; i++) sources.push(`${dir}/${names.next(".ts")}`);
      if (random.chance(0.5)) {
        for (const sub of pickDistinct(random, SUBDIRS, random.int(1, 3))) {
          const subNames = new Names(random);
          const m = scaled(random, 3, 17, scale);
          for (let i = 0; i < m; i++) sources.push(`${dir}/${sub}/${subNames.next(".ts")}`);
        }
      }
    }
    files.push(...sources);
    const tests = new Set<string>();
    for (const source of sources) {
      if (!random.chance(0.4)) continue;
      // services/<svc>/src/<module>/[<sub>/]<name>.ts -> services/<svc>/test/<module>/<name>.test.ts
      const parts = source.split("/");
      const name = parts[parts.length - 1]!.replace(/\.ts$/, ".test.ts");
      const test = `${root}/test/${parts[3]}/${name}`;
      if (tests.has(test)) continue;
      tests.add(test);
      files.push(test);
    }
    const migrations = scaled(random, 5, 60, scale);
    for (let i = 1; i <= migrations; i++) {
      files.push(`${root}/migrations/${String(i).padStart(4, "0")}_${random.pick(WORDS)}_${random.pick(WORDS)}.sql`);
    }
    const docNames = new Names(random);
    const docs = scaled(random, 1, 8, scale);
    for (let i = 0; i < docs; i++) files.push(`${root}/docs/${docNames.next(".md")}`);
    units.push({ kind: "service", root, files });
  }

  for (const pkg of PACKAGES) {
    const root = `packages/${pkg}`;
    const files = [`${root}/README.md`, `${root}/package.json`, `${root}/src/index.ts`];
    for (const dir of pickDistinct(random, WORDS, random.int(3, 14))) {
      const names = new Names(random);
      const n = scaled(random, 5, 30, scale);
      for (let i = 0; i < n; i++) files.push(`${root}/src/${dir}/${names.next(".ts")}`);
    }
    const testNames = new Names(random);
    const tests = Math.round(files.length * 0.3);
    for (let i = 0; i < tests; i++) files.push(`${root}/test/${testNames.next(".test.ts")}`);
    units.push({ kind: "package", root, files });
  }

  for (const area of DOC_AREAS) {
    const root = `docs/${area}`;
    const files = [`${root}/README.md`];
    const names = new Names(random);
    const n = scaled(random, 20, 120, scale);
    for (let i = 0; i < n; i++) files.push(`${root}/${names.next(".md")}`);
    for (const section of pickDistinct(random, WORDS, random.int(1, 5))) {
      const sectionNames = new Names(random);
      const m = scaled(random, 5, 40, scale);
      for (let i = 0; i < m; i++) files.push(`${root}/${section}/${sectionNames.next(".md")}`);
    }
    units.push({ kind: "docs", root, files });
  }

  for (const env of ENVS) {
    const root = `infra/terraform/${env}`;
    const files: string[] = [];
    for (const module of pickDistinct(random, WORDS, random.int(10, 30))) {
      for (const f of ["main.tf", "variables.tf", "outputs.tf", "versions.tf"]) files.push(`${root}/${module}/${f}`);
      const names = new Names(random);
      const extra = scaled(random, 0, 6, scale);
      for (let i = 0; i < extra; i++) files.push(`${root}/${module}/${names.next(".tf")}`);
    }
    units.push({ kind: "infra", root, files });
  }
  {
    const root = "infra/k8s";
    const files: string[] = [];
    for (const svc of SERVICES) {
      const names = new Names(random);
      const n = scaled(random, 3, 10, scale);
      for (let i = 0; i < n; i++) files.push(`${root}/${svc}/${names.next(".yaml", 0.3)}`);
    }
    units.push({ kind: "infra", root, files });
  }
  {
    const files = ["README.md", "package.json", "tsconfig.json", ".gitignore", "CODEOWNERS", "LICENSE"];
    const wf = new Names(random);
    for (let i = 0; i < 20; i++) files.push(`.github/workflows/${wf.next(".yml")}`);
    const scripts = new Names(random);
    const n = scaled(random, 30, 90, scale);
    for (let i = 0; i < n; i++) files.push(`tools/scripts/${scripts.next(".sh")}`);
    units.push({ kind: "tooling", root: "", files });
  }
  return units;
}

/**
 * The layout of exactly `count` files: drawn at the scale that comes nearest, then topped up with
 * more sources in existing service modules, or cut (the last sources of the largest units).
 */
export function repoLayout(count = DEFAULT_REPO_FILES, seed = REPO_SEED): RepoLayout {
  if (!Number.isInteger(count) || count < 1_000) throw new Error(`Invalid repo file count: ${count} (at least 1,000)`);
  const total = (units: RepoUnit[]) => units.reduce((n, u) => n + u.files.length, 0);
  let scale = count / total(draw(1, seed));
  let units = draw(scale, seed);
  for (let i = 0; i < 3; i++) {
    scale *= count / total(units);
    units = draw(scale, seed);
  }
  const random = new Random(seed ^ 0xadd);
  const all = new Set(units.flatMap((u) => u.files));
  const services = units.filter((u) => u.kind === "service");
  while (all.size < count) {
    const unit = random.pick(services);
    const source = random.pick(unit.files.filter((f) => f.includes("/src/")));
    const path = `${dirname(source)}/${random.pick(WORDS)}-${random.pick(WORDS)}.ts`;
    if (all.has(path)) continue;
    all.add(path);
    unit.files.push(path);
  }
  while (all.size > count) {
    const unit = units.reduce((a, b) => (b.files.length > a.files.length ? b : a));
    const at = unit.files.findLastIndex((f) => f.endsWith(".ts"));
    const [removed] = unit.files.splice(at, 1);
    all.delete(removed!);
  }
  return { count, files: [...all].sort(), units };
}

/** Files per kind of unit, directories, depth: for the run's log. */
export function describeLayout(layout: RepoLayout): string {
  const byKind = new Map<string, number>();
  for (const u of layout.units) byKind.set(u.kind, (byKind.get(u.kind) ?? 0) + u.files.length);
  const depths = layout.files.map((f) => f.split("/").length);
  const dirs = new Set(layout.files.map((f) => dirname(f)));
  const kinds = [...byKind].map(([k, n]) => `${k} ${n.toLocaleString("en-US")}`).join(", ");
  return (
    `${layout.files.length.toLocaleString("en-US")} files in ${dirs.size.toLocaleString("en-US")} directories (${kinds}), ` +
    `depth ${Math.min(...depths)}-${Math.max(...depths)}`
  );
}

// ---- the git repository ----

/** Tiny contents, one blob per extension. */
function contentFor(path: string): string {
  if (path.endsWith(".ts")) return "export {};\n";
  if (path.endsWith(".md")) return "# notes\n";
  if (path.endsWith(".json")) return "{}\n";
  if (path.endsWith(".sql")) return "-- migration\n";
  if (path.endsWith(".sh")) return "#!/bin/sh\n";
  return "\n";
}

async function git(dir: string, args: string[], stdin?: string): Promise<string> {
  const proc = Bun.spawn([
    "git",
    "-C",
    dir,
    "-c",
    "user.name=Bench",
    "-c",
    "user.email=bench@example.com",
    "-c",
    "commit.gpgsign=false",
    ...args,
  ], {
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`git ${args.join(" ")} exited with ${code}: ${err.trim()}`);
  return out.trim();
}

export interface CreatedRepo {
  /** Absolute path of the repository (a `git init -b main` directory; no files checked out). */
  dir: string;
  /** The commit of `main`. */
  commit: string;
  seconds: number;
  remove(): Promise<void>;
}

/**
 * `git init -b main` in a fresh temp dir (`benchctx-repo-*`) and one commit of every file of
 * `files`, through `git fast-import` (nothing written to the working tree: the code host reads
 * the commit, not the files).
 */
export async function createGitRepo(files: readonly string[], parent = tmpdir()): Promise<CreatedRepo> {
  const started = performance.now();
  const dir = await mkdtemp(join(parent, "benchctx-repo-"));
  try {
    await git(dir, ["init", "-q", "-b", "main"]);
    const blobs = new Map<string, number>();
    const chunks: string[] = [];
    for (const path of files) {
      const content = contentFor(path);
      if (blobs.has(content)) continue;
      const mark = blobs.size + 1;
      blobs.set(content, mark);
      chunks.push(`blob\nmark :${mark}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
    }
    const message = `Synthetic monorepo of ${files.length} files\n`;
    chunks.push(
      `commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata ${Buffer.byteLength(message)}\n${message}`,
    );
    for (const path of files) chunks.push(`M 100644 :${blobs.get(contentFor(path))} ${path}\n`);
    chunks.push("\n");
    await git(dir, ["fast-import", "--quiet"], chunks.join(""));
    const commit = await git(dir, ["rev-parse", "refs/heads/main"]);
    return { dir, commit, seconds: (performance.now() - started) / 1000, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The same repository made the plain way (write every file, `git add`, `git commit`): for comparison. */
export async function createGitRepoByWriting(files: readonly string[], parent = tmpdir()): Promise<CreatedRepo> {
  const started = performance.now();
  const dir = await mkdtemp(join(parent, "benchctx-repo-"));
  try {
    await git(dir, ["init", "-q", "-b", "main"]);
    const dirs = new Set(files.map((f) => dirname(join(dir, f))));
    for (const d of dirs) await mkdir(d, { recursive: true });
    for (let i = 0; i < files.length; i += 256) {
      await Promise.all(files.slice(i, i + 256).map((f) => writeFile(join(dir, f), contentFor(f))));
    }
    await git(dir, ["add", "-A"]);
    await git(dir, ["commit", "-q", "-m", `Synthetic monorepo of ${files.length} files`]);
    const commit = await git(dir, ["rev-parse", "refs/heads/main"]);
    return { dir, commit, seconds: (performance.now() - started) / 1000, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `git ls-tree -r --name-only` of the commit: what the code host will index. */
export async function listCommittedFiles(repo: CreatedRepo): Promise<string[]> {
  const out = await git(repo.dir, ["ls-tree", "-r", "--name-only", repo.commit]);
  return out === "" ? [] : out.split("\n");
}

if (import.meta.main) {
  const count = Number(process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : DEFAULT_REPO_FILES);
  const compare = process.argv.includes("--compare");
  let started = performance.now();
  const layout = repoLayout(count);
  console.log(`layout generated in ${((performance.now() - started) / 1000).toFixed(2)} s: ${describeLayout(layout)}`);
  for (const f of [0, 1, 2].map((i) => layout.files[Math.floor((i * layout.files.length) / 3) + 7]!)) console.log(`  e.g. ${f}`);
  const repo = await createGitRepo(layout.files);
  try {
    console.log(`git repo (fast-import) created in ${repo.seconds.toFixed(2)} s at ${repo.dir}, commit ${repo.commit.slice(0, 12)}`);
    started = performance.now();
    const listed = await listCommittedFiles(repo);
    const same = listed.length === layout.files.length && listed.every((f, i) => f === layout.files[i]);
    console.log(
      `  ls-tree: ${listed.length} files in ${((performance.now() - started) / 1000).toFixed(2)} s (${
        same ? "same as the layout" : "DIFFERENT from the layout"
      })`,
    );
  } finally {
    await repo.remove();
  }
  if (compare) {
    const plain = await createGitRepoByWriting(layout.files);
    console.log(`git repo (write files + add + commit) created in ${plain.seconds.toFixed(2)} s`);
    await plain.remove();
  }
}
