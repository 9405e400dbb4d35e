/**
 * Lints the OpenAPI document with Redocly CLI's recommended rules, as client generators would
 * read it: `npm test` fails on any error or warning.
 *
 *   bun tests/openapi/lint.ts
 *
 * The document comes from the app built in-process (memory stores, no server, no network): the
 * same `GET /api/v1/openapi.json` a client fetches. Redocly runs offline, with its telemetry and
 * update check off (redocly.yaml, and the environment below). The last line is always
 * `openapi lint: N passed, M failed`: one pass for a clean document, one failure per problem.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/test-app.ts";

const root = new URL("../..", import.meta.url).pathname;

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location?: Array<{ pointer?: string }>;
}

async function lint(): Promise<{ problems: Problem[]; exitCode: number }> {
  const t = await makeTestApp();
  const res = await t.app.handle(new Request("http://localhost/api/v1/openapi.json"));
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  const dir = await mkdtemp(join(tmpdir(), "wks-openapi-lint-"));
  try {
    const file = join(dir, "openapi.json");
    await Bun.write(file, await res.text());
    const child = Bun.spawn(
      [
        process.execPath,
        join(root, "node_modules/@redocly/cli/bin/cli.js"),
        "lint",
        file,
        "--config",
        join(root, "redocly.yaml"),
        "--format",
        "json",
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
          CI: "true",
        },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const json = out.slice(out.indexOf("{"));
    let report: { problems?: Problem[] };
    try {
      report = JSON.parse(json);
    } catch {
      throw new Error(`Redocly printed no JSON report (exit ${exitCode}):\n${out}\n${err}`);
    }
    return { problems: report.problems ?? [], exitCode };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let passed = 0;
let failed = 1;
try {
  const { problems, exitCode } = await lint();
  for (const p of problems) {
    console.log(`${p.severity === "error" ? "error  " : "warning"} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? "?"})`);
  }
  failed = problems.length + (problems.length === 0 && exitCode !== 0 ? 1 : 0);
  passed = failed === 0 ? 1 : 0;
  if (failed === 0) console.log("The OpenAPI document passes Redocly's recommended rules with no error and no warning.");
} catch (error) {
  console.error(`openapi lint: cannot run: ${(error as Error).message}`);
}
console.log(`openapi lint: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
