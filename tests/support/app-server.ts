/**
 * Starts the real HTTP server (`bun server/main.ts`) as a child process and
 * bootstraps a workspace on it.
 *
 * The store is either embedded (a fresh temporary DATA_DIR, removed on stop)
 * or the PostgreSQL server at `databaseUrl`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Child, spawnChild } from "./child-process.ts";
import { freePort, waitForHttp } from "./net.ts";

export const PROJECT_ROOT = resolve(import.meta.dir, "../..");
export const SERVER_ENTRY = join(PROJECT_ROOT, "server/main.ts");
/** As `npm start` runs it: Bun's header limit raised so the app answers long URLs itself (server/app.ts MAX_URL_LENGTH). */
export const SERVER_FLAGS = ["--max-http-header-size=65536"];

export interface AppServerOptions {
  /** Label used in messages and as the child's name. */
  name?: string;
  /** Use this PostgreSQL server instead of the embedded store. */
  databaseUrl?: string;
  /** The embedded store's DATA_DIR: kept on stop (the store copy reads it); default a temporary one, removed on stop. */
  dataDir?: string;
  /** Extra environment for the server (LOG_LEVEL, SECRET_KEY, ...). */
  env?: Record<string, string | undefined>;
  /** Echo the server's output to ours. */
  echo?: boolean;
  /** Called with every line the server writes. */
  onLine?: (line: string, stream: "out" | "err") => void;
  /** Extra flags for bun before the entry point (the bench's `BENCH_SERVER_FLAGS`, e.g. `--cpu-prof-md`). */
  flags?: readonly string[];
  startTimeoutMs?: number;
}

export interface AppServer {
  /** `http://127.0.0.1:PORT` without a trailing slash. */
  readonly origin: string;
  readonly child: Child;
  /** Temporary DATA_DIR of the embedded store, when one is used. */
  readonly dataDir: string | null;
  stop(): Promise<void>;
}

const running = new Set<AppServer>();

/** Stops every server started here that is still running (and removes its DATA_DIR). */
export async function stopAllAppServers(): Promise<void> {
  for (const server of [...running].reverse()) await server.stop().catch(() => undefined);
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  if (!(await Bun.file(SERVER_ENTRY).exists())) {
    throw new Error(`Cannot start the server: ${SERVER_ENTRY} does not exist`);
  }
  const name = options.name ?? "server";
  const port = freePort();
  const dataDir = options.databaseUrl ? null : options.dataDir ?? await mkdtemp(join(tmpdir(), "wks-data-"));
  // `undefined` removes the variable: an inherited DATABASE_URL or MONGO_URL must not
  // redirect an embedded-store server to some other database.
  const env: Record<string, string | undefined> = {
    ...options.env,
    PORT: String(port),
    DATA_DIR: dataDir ?? undefined,
    DATABASE_URL: options.databaseUrl,
    MONGO_URL: options.env?.MONGO_URL,
  };
  const child = spawnChild(name, [process.execPath, ...SERVER_FLAGS, ...(options.flags ?? []), SERVER_ENTRY], {
    cwd: PROJECT_ROOT,
    env,
    echo: options.echo,
    onLine: options.onLine,
  });
  const origin = `http://127.0.0.1:${port}`;
  // Memoised: a second caller (a signal handler, a finally block) awaits the same stop.
  let stopping: Promise<void> | null = null;
  const cleanup = () => (stopping ??= (async () => {
    await child.stop();
    if (dataDir && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
    running.delete(server);
  })());
  const server: AppServer = { origin, child, dataDir, stop: cleanup };
  running.add(server);
  try {
    // Ready means the health route answers 200. The `listening` line is not
    // awaited: the server prints it at LOG_LEVEL info and below only.
    const timeout = options.startTimeoutMs ?? 60_000;
    await Promise.race([
      waitForHttp(`${origin}/api/v1/health`, timeout),
      child.exited.then((code) => {
        throw new Error(`${name} exited with code ${code} before answering GET /api/v1/health`);
      }),
    ]);
  } catch (error) {
    await cleanup();
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${child.tail()}`);
  }
  return server;
}

export interface BootstrappedWorkspace {
  slug: string;
  /** The raw API key, sent as `x-api-key`. */
  apiKey: string;
  /** The whole 201 body. */
  body: Record<string, unknown>;
}

/** `POST /api/v1/workspaces` (no auth) and returns the owner's raw API key. */
export async function bootstrapWorkspace(
  origin: string,
  slug: string,
  ownerEmail = `owner@${slug}.example.com`,
): Promise<BootstrappedWorkspace> {
  const response = await fetch(`${origin}/api/v1/workspaces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ slug, owner_email: ownerEmail }),
  });
  const text = await response.text();
  if (response.status !== 201) {
    throw new Error(`Cannot bootstrap workspace ${slug}: POST /api/v1/workspaces answered ${response.status}: ${text}`);
  }
  const body = JSON.parse(text) as Record<string, any>;
  const apiKey = body?.api_key?.key;
  if (typeof apiKey !== "string" || apiKey.length === 0) {
    throw new Error(`Cannot bootstrap workspace ${slug}: no api_key.key in the 201 body: ${text}`);
  }
  const realSlug = typeof body?.workspace?.slug === "string" ? body.workspace.slug : slug;
  return { slug: realSlug, apiKey, body };
}
