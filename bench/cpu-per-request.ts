/**
 * Server CPU per request of the authenticated `GET /api/v1/workspaces/{slug}` (ADR 040):
 * the server process's user + system time (`/proc/<pid>/stat`) over a wrk load, divided by its
 * requests, in rounds alternating a bare `Bun.serve` hello-world and each build given. Other
 * processes on the machine move this far less than they move requests/s. Linux only.
 *
 *   bun bench/cpu-per-request.ts before=/tmp/before after=.    # each: name=checkout[,ENV=value...]
 *
 * A checkout is a directory holding `server/main.ts` (e.g. `git archive <commit> | tar -x -C dir`,
 * with `node_modules` linked in). Environment: ROUNDS (default 7), SECS (measured seconds, 4, after
 * 2 s of warm-up), CONNS (16). Also prints wrk's own CPU per request, which the requests/s ratio of
 * `npm run bench` carries on both sides.
 *
 * `REQUEST=tag-page` measures a kept tag page instead (ADR 049): each build's workspace gets 60
 * topics of the bench dataset (bench/datasets/topics.ts) tagged `popular`, created through the API,
 * and the load asks `GET …/topics?tags=popular&view=summary` (50 of them per answer, ~45 KB).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startPostgres } from "../tests/support/postgres-server.ts";
import { freePort } from "../tests/support/net.ts";
import { bootstrapWorkspace } from "../tests/support/app-server.ts";
import { TopicDataset } from "./datasets/topics.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SECS = Number(process.env.SECS ?? 4);
const CONNS = Number(process.env.CONNS ?? 16);
const TICKS_PER_SECOND = 100;
const REQUEST = process.env.REQUEST ?? "workspace";
if (REQUEST !== "workspace" && REQUEST !== "tag-page") throw new Error(`REQUEST: workspace or tag-page, got ${REQUEST}`);

/** Creates the tag page's topics in a workspace through the API; answers the path to load. */
async function seedTagPage(origin: string, slug: string, apiKey: string): Promise<string> {
  const dataset = new TopicDataset({ count: 60 });
  for (const t of dataset.topics("00000000-0000-7000-8000-000000000000")) {
    const response = await fetch(`${origin}/api/v1/workspaces/${slug}/topics`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ title: t.title, body: t.body, tags: [...t.tags, "popular"], kind: t.kind }),
    });
    if (response.status !== 201) throw new Error(`Cannot seed a topic: ${response.status} ${await response.text()}`);
  }
  return "/topics?tags=popular&view=summary";
}

const builds = process.argv.slice(2).map((arg) => {
  const [head, ...envs] = arg.split(",");
  const [name, dir] = head!.split("=");
  if (!name || !dir) throw new Error(`Expected name=checkout[,ENV=value...], got ${arg}`);
  return { name, dir: resolve(dir), env: Object.fromEntries(envs.map((e) => e.split("=") as [string, string])) };
});

interface Server {
  name: string;
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  headers: string[];
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`No answer from ${url}`);
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

async function wrk(server: Server, seconds: number) {
  const child = Bun.spawn(["wrk", "-t1", `-c${CONNS}`, `-d${seconds}s`, ...server.headers, server.url], { stdout: "pipe" });
  const out = await new Response(child.stdout).text();
  await child.exited;
  if (/Non-2xx/.test(out)) throw new Error(`${server.name} answered errors under load:\n${out}`);
  const requests = Number(/(\d+) requests in/.exec(out)![1]);
  const usage = child.resourceUsage();
  const wrkMicros = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) : 0;
  return { requests, rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), wrkMicrosPerRequest: wrkMicros / requests };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const pg = await startPostgres();
const servers: Server[] = [];
try {
  const barePort = freePort();
  const bare = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts")], {
    env: { ...process.env, PORT: String(barePort) },
    stdout: "ignore",
  });
  servers.push({ name: "bare", proc: bare, url: `http://127.0.0.1:${barePort}/`, headers: [] });
  await waitFor(servers[0]!.url);
  for (const build of builds) {
    const port = freePort();
    const proc = Bun.spawn([process.execPath, "--max-http-header-size=65536", "server/main.ts"], {
      cwd: build.dir,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: pg.url,
        SECRET_KEY: "ab".repeat(32),
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_KEY: "1000000000",
        ...build.env,
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    const origin = `http://127.0.0.1:${port}`;
    servers.push({ name: build.name, proc, url: "", headers: [] });
    await waitFor(`${origin}/api/v1/health`);
    const workspace = await bootstrapWorkspace(origin, `cpu-${build.name}-${Date.now().toString(36)}`.slice(0, 40).toLowerCase());
    const path = REQUEST === "tag-page" ? await seedTagPage(origin, workspace.slug, workspace.apiKey) : "";
    servers.at(-1)!.url = `${origin}/api/v1/workspaces/${workspace.slug}${path}`;
    servers.at(-1)!.headers = ["-H", `x-api-key: ${workspace.apiKey}`];
  }
  const results = new Map(servers.map((s) => [s.name, { micros: [] as number[], rps: [] as number[], wrk: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      await wrk(server, 2);
      const before = cpuTicks(server.proc.pid);
      const run = await wrk(server, SECS);
      const micros = ((cpuTicks(server.proc.pid) - before) / TICKS_PER_SECOND) * 1e6 / run.requests;
      const r = results.get(server.name)!;
      r.micros.push(micros);
      r.rps.push(run.rps);
      r.wrk.push(run.wrkMicrosPerRequest);
      console.log(
        `round ${round} ${server.name.padEnd(12)} ${micros.toFixed(2)} µs/request, ${run.rps.toFixed(0)} req/s, wrk ${
          run.wrkMicrosPerRequest.toFixed(2)
        } µs/request`,
      );
    }
  }
  const bareMedian = median(results.get("bare")!.micros);
  console.log(
    "\n| server | CPU per request (median) | min–max | bare / this | wrk CPU per request | req/s (median) |\n|---|---:|---:|---:|---:|---:|",
  );
  for (const [name, r] of results) {
    const m = median(r.micros);
    console.log(
      `| ${name} | ${m.toFixed(2)} µs | ${Math.min(...r.micros).toFixed(2)}–${Math.max(...r.micros).toFixed(2)} | ${
        (bareMedian / m).toFixed(2)
      }× | ${median(r.wrk).toFixed(2)} µs | ${median(r.rps).toFixed(0)} |`,
    );
  }
} finally {
  for (const server of servers) server.proc.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.proc.exited));
  await pg.stop();
}
