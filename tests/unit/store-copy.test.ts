import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { generateRawKey, hashRawKey } from "../../core/access/raw-key.ts";
import type { Stores } from "../../core/stores.ts";
import { type CopyArgs, parseArgs, type StoreLocation } from "../../server/store-copy/args.ts";
import { EXIT, Refusal } from "../../server/store-copy/exit-codes.ts";
import { type CopyEnv, runStoreCopy } from "../../server/store-copy/run.ts";
import { resolveCopySecrets } from "../../server/store-copy/secrets.ts";
import { createProgress } from "../../server/store-copy/progress.ts";
import { checkSource, checkTargetUnused } from "../../server/store-copy/liveness.ts";
import { mkdirSync } from "node:fs";
import { bundle } from "../contract/fixtures.ts";

const SECRET = "s".repeat(40);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "store-copy-unit-"));
  dirs.push(d);
  return d;
}

describe("store:copy arguments", () => {
  test("reads --from and --to as file:, postgres:// and mongodb:// stores, with the flags", () => {
    expect(parseArgs(["--from", "file:./data", "--to", "postgres://u:p@127.0.0.1:5432/wks", "--resume", "--source-stopped"])).toEqual({
      from: { kind: "file", dataDir: "./data" },
      to: { kind: "postgres", url: "postgres://u:p@127.0.0.1:5432/wks" },
      resume: true,
      snapshot: false,
      sourceStopped: true,
    });
    expect(parseArgs(["--from=postgresql://127.0.0.1/a", "--to=mongodb://127.0.0.1/b", "--snapshot"])).toMatchObject({
      from: { kind: "postgres" },
      to: { kind: "mongo", url: "mongodb://127.0.0.1/b" },
      snapshot: true,
    });
  });

  test("says what is wrong with bad arguments, a password never repeated", () => {
    expect(parseArgs(["--to", "file:x"])).toBe("--from is required");
    expect(parseArgs(["--from", "file:x"])).toBe("--to is required");
    expect(parseArgs(["--from", "file:", "--to", "file:y"])).toBe("--from: file: needs a data directory (file:./data)");
    expect(parseArgs(["--from", "mysql://u:secret@h/db", "--to", "file:y"])).toBe(
      '--from: not a store: "mysql://u:***@h/db" (use file:<DATA_DIR>, postgres://… or mongodb://…)',
    );
    expect(parseArgs(["--from", "file:x", "--to", "file:x/"])).toBe("--from and --to name the same store");
    expect(parseArgs(["--from", "file:x", "--to", "file:y", "--force"])).toBe('unknown argument: "--force"');
    expect(parseArgs(["--from", "--to", "file:y"])).toBe("--from needs a store");
    expect(parseArgs(["--from", "file:x", "--from", "file:z", "--to", "file:y"])).toBe("--from given twice");
    expect(parseArgs(["--from", "mongodb://127.0.0.1/a", "--to", "file:y", "--snapshot"])).toMatch(/^--snapshot: only a PostgreSQL source/);
    expect(parseArgs(["--from", "file:x", "--to", "file:y", "--snapshot"])).toMatch(/embedded store is opened by one process/);
  });
});

describe("store:copy secrets", () => {
  const file = (dataDir: string): StoreLocation => ({ kind: "file", dataDir });
  const pg: StoreLocation = { kind: "postgres", url: "postgres://127.0.0.1/x" };

  test("an embedded source's secret file is written to an embedded target without one", () => {
    const from = tempDir(), to = tempDir();
    writeFileSync(join(from, "secret.key"), `${SECRET}\n`);
    expect(resolveCopySecrets(file(from), file(to), {})).toEqual({ source: SECRET, writeTarget: join(to, "secret.key") });
  });

  test("refuses an embedded target whose secret file differs, and a database target without SECRET_KEY", () => {
    const from = tempDir(), to = tempDir();
    writeFileSync(join(from, "secret.key"), `${SECRET}\n`);
    writeFileSync(join(to, "secret.key"), `${"t".repeat(40)}\n`);
    expect(() => resolveCopySecrets(file(from), file(to), {})).toThrow(/holds another secret than the source's/);
    expect(() => resolveCopySecrets(file(from), pg, {})).toThrow(/run with SECRET_KEY set to the content of/);
    expect(resolveCopySecrets(file(from), pg, { SECRET_KEY: SECRET })).toEqual({ source: SECRET, writeTarget: null });
    expect(() => resolveCopySecrets(pg, file(to), { SECRET_KEY: "short" })).toThrow(/at least 32 characters/);
  });
});

/** A memory store with one workspace whose first API key is sealed under `secret`; returns the raw key. */
async function seeded(secret: string): Promise<{ stores: Stores; raw: string }> {
  const stores = createMemoryStores();
  const b = bundle();
  const raw = generateRawKey();
  const box = await createSecretBox(secret);
  b.apiKey = { ...b.apiKey, key_hash: hashRawKey(raw), key_ciphertext: await box.seal(raw) };
  expect(await stores.workspaces.bootstrap(b)).toBe("ok");
  return { stores, raw };
}

function env(source: Stores, target: Stores, over: Partial<CopyEnv> = {}): CopyEnv & { lines: string[]; table: string[] } {
  const lines: string[] = [];
  const table: string[] = [];
  return {
    lines,
    table,
    open: async (l) => (l.kind === "file" && l.dataDir === "src" ? source : target),
    checkSource: async () => "test",
    checkTarget: async () => {},
    secrets: () => ({ source: SECRET, writeTarget: null }),
    mark: () => () => {},
    progress: createProgress({ write: (s: string) => lines.push(s), isTTY: false }),
    out: (t) => table.push(t),
    ...over,
  };
}

const ARGS: CopyArgs = {
  from: { kind: "file", dataDir: "src" },
  to: { kind: "file", dataDir: "dst" },
  resume: false,
  snapshot: false,
  sourceStopped: false,
};

describe("store:copy run", () => {
  test("copies every kind, prints the table and exits 0; the copied key authenticates", async () => {
    const { stores: source, raw } = await seeded(SECRET);
    const target = createMemoryStores();
    const e = env(source, target);
    expect(await runStoreCopy(ARGS, e)).toBe(EXIT.ok);
    expect(e.table.join("\n")).toContain("counts and digests the same on both sides");
    expect(e.table.join("\n")).toContain("access.api_keys");
    expect(e.lines.join("")).toContain("SECRET_KEY opens the source's API keys (1 checked)");
    expect((await target.apiKeys.findByHash(hashRawKey(raw)))?.key.key_hash).toBe(hashRawKey(raw));
  });

  test("refuses a target that is not empty (exit 4), and resumes into it with --resume, the kinds already there checked, not copied", async () => {
    const { stores: source } = await seeded(SECRET);
    const target = createMemoryStores();
    expect(await runStoreCopy(ARGS, env(source, target))).toBe(EXIT.ok);
    const again = env(source, target);
    expect(await runStoreCopy(ARGS, again)).toBe(EXIT.targetNotEmpty);
    expect(again.lines.join("")).toContain("refused: The target is not empty (workspaces.identities");
    const resumed = env(source, target);
    expect(await runStoreCopy({ ...ARGS, resume: true }, resumed)).toBe(EXIT.ok);
    expect(resumed.lines.join("")).toContain("copied workspaces.workspaces: already on the target");
  });

  test("refuses a SECRET_KEY that does not open the source's keys (exit 5), copying nothing", async () => {
    const { stores: source } = await seeded("o".repeat(40));
    const target = createMemoryStores();
    const e = env(source, target);
    expect(await runStoreCopy(ARGS, e)).toBe(EXIT.secret);
    expect(e.lines.join("")).toContain("refused: SECRET_KEY does not open the source's API keys");
    expect(await target.workspaces.list({}, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    const none = env(source, target, { secrets: () => ({ source: null, writeTarget: null }) });
    expect(await runStoreCopy(ARGS, none)).toBe(EXIT.secret);
    expect(none.lines.join("")).toContain("SECRET_KEY is not set");
  });

  test("a live source refused by its check exits 3 before anything is opened", async () => {
    let opened = false;
    const e = env(createMemoryStores(), createMemoryStores(), {
      checkSource: () => Promise.reject(new Refusal(EXIT.sourceLive, "a server is using the source")),
      open: () => {
        opened = true;
        return Promise.resolve(createMemoryStores());
      },
    });
    expect(await runStoreCopy(ARGS, e)).toBe(EXIT.sourceLive);
    expect(opened).toBe(false);
    expect(e.lines.join("")).toContain("refused: a server is using the source");
  });

  test("a difference found by the final check exits 6 and shows both digests", async () => {
    const { stores: source } = await seeded(SECRET);
    const target = createMemoryStores();
    // A target that drops API keys on write: the copy completes, the check sees the loss.
    const keys = target.transfer.kinds.find((k) => k.name === "access.api_keys")!;
    (keys as { write: typeof keys.write }).write = async () => 0;
    const e = env(source, target);
    expect(await runStoreCopy(ARGS, e)).toBe(EXIT.verifyFailed);
    expect(e.table.join("\n")).toMatch(/access\.api_keys\s+1\s+0\s+[0-9a-f]{64}\s+DIFFERENT/);
    expect(e.table.join("\n")).toContain("DIFFERENT: 1 of");
  });

  test("the embedded target's secret file is written before copying, mode 600", async () => {
    const { stores: source } = await seeded(SECRET);
    const dir = tempDir();
    const path = join(dir, "secret.key");
    const e = env(source, createMemoryStores(), { secrets: () => ({ source: SECRET, writeTarget: path }) });
    expect(await runStoreCopy(ARGS, e)).toBe(EXIT.ok);
    expect(readFileSync(path, "utf8")).toBe(`${SECRET}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe("store:copy liveness", () => {
  const args = (from: StoreLocation, over: Partial<CopyArgs> = {}): CopyArgs => ({
    from,
    to: { kind: "file", dataDir: "unused" },
    resume: false,
    snapshot: false,
    sourceStopped: false,
    ...over,
  });

  test("a MongoDB source needs --source-stopped (nothing tells whether a server uses it)", async () => {
    const mongo: StoreLocation = { kind: "mongo", url: "mongodb://127.0.0.1:1/x" };
    await expect(checkSource(args(mongo))).rejects.toMatchObject({
      code: EXIT.sourceLive,
      message: expect.stringContaining("--source-stopped"),
    });
    expect(await checkSource(args(mongo, { sourceStopped: true }))).toBe("stopped, as --source-stopped says");
  });

  test("an embedded store open in a process (PGlite's lock) is refused; the lock of a copy that died is not", async () => {
    const dir = tempDir();
    const from: StoreLocation = { kind: "file", dataDir: dir };
    expect(await checkSource(args(from))).toBe("embedded store not in use");
    mkdirSync(join(dir, "pglite"), { recursive: true });
    writeFileSync(join(dir, "pglite", "postmaster.pid"), "-42\n");
    await expect(checkSource(args(from))).rejects.toMatchObject({ code: EXIT.sourceLive });
    await expect(checkTargetUnused(from)).rejects.toMatchObject({ code: EXIT.targetNotEmpty });
    expect(await checkSource(args(from, { sourceStopped: true }))).toBe("embedded store not in use");
    // This command's own mark, of a process that is gone (a SIGKILL): the lock is its leftover.
    writeFileSync(join(dir, "store-copy.pid"), "2147483646\n");
    expect(await checkSource(args(from))).toBe("embedded store not in use");
    await checkTargetUnused(from);
    // Of a process that runs (this one): in use.
    writeFileSync(join(dir, "store-copy.pid"), `${process.pid}\n`);
    await expect(checkSource(args(from))).rejects.toMatchObject({ code: EXIT.sourceLive });
  });
});

describe("store:copy progress", () => {
  test("a terminal gets a bar redrawn in place, a pipe plain lines", () => {
    const tty: string[] = [];
    const bar = createProgress({ write: (s: string) => tty.push(s), isTTY: true });
    bar.start("topics.topics", 1000);
    bar.finish("topics.topics", 1000, 990);
    expect(tty[0]).toMatch(/^\rtopics\.topics\s+\[-{30}\] 0\/1000/);
    // ESC [ K (erase to the end of the line) shown as <EL>: a pattern may not hold control characters.
    expect(tty[1]!.replaceAll("\u001b[K", "<EL>")).toMatch(/^\rtopics\.topics\s+\[#{30}\] 1000\/1000<EL> 1000 read, 990 added\n$/);
    const pipe: string[] = [];
    const lines = createProgress({ write: (s: string) => pipe.push(s), isTTY: false });
    lines.start("topics.topics", 20_000);
    lines.advance("topics.topics", 500);
    lines.advance("topics.topics", 10_000);
    lines.finish("topics.topics", 20_000, 20_000);
    expect(pipe).toEqual([
      "copying topics.topics: 20000 documents\n",
      "  topics.topics: 10000/20000\n",
      "copied topics.topics: 20000 read, 20000 added\n",
    ]);
  });
});
