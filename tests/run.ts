/**
 * `npm test`: everything, in one command, on a fresh machine. Starts the services it needs
 * (throwaway PostgreSQL, Redis and FerretDB servers, installed or built when missing; Schemathesis
 * is installed by its step), runs
 *   1. tsc: the whole tree type-checks (strict);
 *   2. Redocly's recommended rules on the OpenAPI document (offline, no error, no warning);
 *   3. bun test: unit, contract suites on every adapter, HTTP and multi-process tests;
 *   4. Deno: type-checks core and runs a program on it, and the contract kit (tests/contract/kit/),
 *      both with the memory adapter;
 *   5. the Schemathesis fuzz of the OpenAPI document against a live server (all checks, stateful);
 * and ends with one line `N passed, M failed` summing all of them (and the skipped, if any: each
 * is listed with its reason above). Any failure, or a step that cannot get its service, makes the
 * run fail: nothing is skipped quietly.
 */
import { startMongo } from "./support/mongo-server.ts";
import { startPostgres } from "./support/postgres-server.ts";
import { startRedis } from "./support/redis-server.ts";

interface StepResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  exitCode: number;
  /** What each failure printed, repeated under the summary: CI shows only the end of the output. */
  failures: string[];
}

const root = new URL("..", import.meta.url).pathname;
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

async function step(
  name: string,
  cmd: string[],
  env: Record<string, string>,
  count: (out: string) => [number, number, number?],
): Promise<StepResult> {
  console.log(`\n=== ${name}: ${cmd.join(" ")}`);
  const child = Bun.spawn(cmd, { cwd: root, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let out = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) {
      const text = dec.decode(chunk, { stream: true });
      out += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr)]);
  const exitCode = await child.exited;
  // Colour codes (ESC [ … m) stripped before counting.
  // deno-lint-ignore no-control-regex
  const plain = out.replace(/\x1b\[[0-9;]*m/g, "");
  const [passed, failed, skipped = 0] = count(plain);
  return { name, passed, failed, skipped, exitCode, failures: failureReports(plain) };
}

/**
 * bun test prints a failing test's error above its `(fail) name` line; keep the name and the
 * lines just before it (from the nearest earlier test result), at most 25 of them.
 */
function failureReports(out: string): string[] {
  const lines = out.split("\n");
  const reports: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("(fail) ")) continue;
    let from = i;
    while (from > 0 && i - from < 25 && !/^\((pass|fail|skip)\) /.test(lines[from - 1]!)) from--;
    reports.push(lines.slice(from, i + 1).join("\n"));
  }
  return reports;
}

const lastNumber = (out: string, re: RegExp) => {
  const all = [...out.matchAll(re)];
  return all.length ? Number(all.at(-1)![1]) : 0;
};

// Started together: the first FerretDB build alone takes over a minute.
const started = await Promise.allSettled([startPostgres(), startRedis(), startMongo()]);
const stoppers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
const failedToStart = started.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
if (failedToStart.length > 0) {
  for (const s of stoppers) await s.stop();
  for (const e of failedToStart) console.error(`Cannot start a service the tests need: ${(e as Error).message}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const [pg, redis, mongo] = stoppers as [
  Awaited<ReturnType<typeof startPostgres>>,
  Awaited<ReturnType<typeof startRedis>>,
  Awaited<ReturnType<typeof startMongo>>,
];
const results: StepResult[] = [];
try {
  const env = { TEST_DATABASE_URL: pg.url, TEST_REDIS_URL: redis.url, TEST_MONGO_URL: mongo.url };
  results.push(
    await step("typecheck", [bin("tsc"), "--noEmit", "-p", "tsconfig.json"], {}, (o) => (/error TS\d+/.test(o) ? [0, 1] : [1, 0])),
  );
  // The formatter and the linter (deno.json; tests are linted with tests/deno.lint.json, which allows `any` for HTTP bodies).
  const clean = (bad: RegExp) => (o: string): [number, number] => (bad.test(o) ? [0, 1] : [1, 0]);
  results.push(await step("fmt", [bin("deno"), "fmt", "--check"], {}, clean(/not formatted|error:/)));
  results.push(await step("lint", [bin("deno"), "lint"], {}, clean(/Found \d+ problems?|error:/)));
  results.push(
    await step("lint tests", [bin("deno"), "lint", "--config", "tests/deno.lint.json"], {}, clean(/Found \d+ problems?|error:/)),
  );
  results.push(
    await step("openapi lint", [bin("bun"), "tests/openapi/lint.ts"], {}, (o) => [
      lastNumber(o, /^openapi lint: (\d+) passed/gm),
      lastNumber(o, /^openapi lint: \d+ passed, (\d+) failed/gm),
    ]),
  );
  results.push(
    // 120 s a test: the seeded-corpus searches on the MongoDB-wire server take ~50 s on a loaded 2-core machine.
    await step("bun test", [bin("bun"), "test", "--timeout", "120000", "tests/"], env, (o) => [
      lastNumber(o, /^\s*(\d+) pass$/gm),
      lastNumber(o, /^\s*(\d+) fail$/gm),
      lastNumber(o, /^\s*(\d+) skip$/gm),
    ]),
  );
  results.push(
    // Deno's summary: "ok | N passed | M failed", then "| K ignored" when tests were skipped.
    await step(
      "deno",
      // yaml (front matter) reads two debug variables of its own when it parses (ADR 064).
      [
        bin("deno"),
        "test",
        "--allow-read",
        "--allow-env=LOG_TOKENS,LOG_STREAM",
        "--no-prompt",
        "tests/deno/core-on-deno.ts",
        "tests/deno/contracts-on-deno.ts",
        "tests/deno/portability-on-deno.ts",
      ],
      {},
      (o) => [
        lastNumber(o, /(\d+) passed/g),
        lastNumber(o, /(\d+) failed/g),
        lastNumber(o, /(\d+) ignored/g),
      ],
    ),
  );
  results.push(
    await step("fuzz", [bin("bun"), "tests/fuzz/schemathesis.ts"], {}, (o) => [
      lastNumber(o, /^fuzz: (\d+) passed/gm),
      lastNumber(o, /^fuzz: \d+ passed, (\d+) failed/gm),
    ]),
  );
} finally {
  await pg.stop();
  await redis.stop();
  await mongo.stop();
}

const failures = results.flatMap((r) => r.failures.map((f) => `--- ${r.name}\n${f}`));
if (failures.length > 0) console.log(`\n=== failures, repeated\n${failures.join("\n")}`);
console.log("\n=== summary");
const skips = (n: number) => (n > 0 ? `, ${n} skipped` : "");
for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed${skips(r.skipped)} (exit ${r.exitCode})`);
const passed = results.reduce((n, r) => n + r.passed, 0);
let failed = results.reduce((n, r) => n + r.failed, 0);
// A step that exited non-zero without counting a failure (crash, missing service) still fails the run.
for (const r of results) if (r.exitCode !== 0 && r.failed === 0) failed += 1;
if (passed === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed${skips(results.reduce((n, r) => n + r.skipped, 0))}`);
process.exit(failed === 0 ? 0 : 1);
