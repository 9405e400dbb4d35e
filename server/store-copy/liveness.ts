import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { SERVICE_APPLICATION_NAME } from "../../adapters/postgres/postgres-js-driver.ts";
import { COPY_APPLICATION_NAME } from "./open-store.ts";
import type { CopyArgs, StoreLocation } from "./args.ts";
import { EXIT, Refusal } from "./exit-codes.ts";

/**
 * Whether a server may be using a store, where that can be told:
 * - the embedded store: PGlite keeps `DATA_DIR/pglite/postmaster.pid` while a process has it open
 *   (removed on a clean close; left behind by a crash, which cannot be told apart: then
 *   `--source-stopped`). This command marks its own use with `DATA_DIR/store-copy.pid`, so its
 *   own crash is told apart on `--resume`;
 * - PostgreSQL: sessions of the service's `application_name` in `pg_stat_activity` (a role
 *   without pg_read_all_stats sees other roles' sessions too, names included);
 * - MongoDB (FerretDB): nothing tells; the operator says so with `--source-stopped`.
 */
const PGLITE_LOCK = "postmaster.pid";
const COPY_LOCK = "store-copy.pid";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

/** The embedded store is open in some process, unless the lock is this command's own, left by a crash. */
function embeddedInUse(dataDir: string): boolean {
  if (!existsSync(join(resolve(dataDir), "pglite", PGLITE_LOCK))) return false;
  const mine = join(resolve(dataDir), COPY_LOCK);
  if (!existsSync(mine)) return true;
  const pid = Number(readFileSync(mine, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 && alive(pid);
}

/** How many sessions of the service use the database (the server's pools, its LISTEN bus). */
async function serverSessions(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => {}, connection: { application_name: COPY_APPLICATION_NAME } });
  try {
    const rows = await sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = ${SERVICE_APPLICATION_NAME} and pid <> pg_backend_pid()`;
    return Number(rows[0]!.n);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Refuses to read a source a server may be writing, unless it is read in a snapshot or the operator says it is stopped. */
export async function checkSource(args: CopyArgs): Promise<string> {
  const l = args.from;
  if (l.kind === "file") {
    if (embeddedInUse(l.dataDir) && !args.sourceStopped) {
      throw new Refusal(
        EXIT.sourceLive,
        `The embedded store in ${l.dataDir} is open (pglite/${PGLITE_LOCK}): stop the server first. If no server runs (it crashed), pass --source-stopped`,
      );
    }
    return "embedded store not in use";
  }
  if (l.kind === "postgres") {
    if (args.snapshot) return "read in one REPEATABLE READ snapshot (--snapshot)";
    const n = await serverSessions(l.url);
    if (n > 0) {
      throw new Refusal(
        EXIT.sourceLive,
        `A server is using the source (${n} session(s) named ${SERVICE_APPLICATION_NAME} in pg_stat_activity): stop it, or pass --snapshot to read one consistent moment of a live source`,
      );
    }
    return "no server session on the source";
  }
  if (!args.sourceStopped) {
    throw new Refusal(
      EXIT.sourceLive,
      "MongoDB offers no snapshot and this command cannot tell whether a server uses it: stop every server on the source, then pass --source-stopped",
    );
  }
  return "stopped, as --source-stopped says";
}

/** Refuses a target a server uses (its writes would mix with the copy's). */
export async function checkTargetUnused(l: StoreLocation): Promise<void> {
  if (l.kind === "file" && embeddedInUse(l.dataDir)) {
    throw new Refusal(
      EXIT.targetNotEmpty,
      `The embedded store in ${l.dataDir} is open (pglite/${PGLITE_LOCK}): stop the server that uses it`,
    );
  }
  if (l.kind === "postgres") {
    const n = await serverSessions(l.url);
    if (n > 0) {
      throw new Refusal(
        EXIT.targetNotEmpty,
        `A server is using the target (${n} session(s) named ${SERVICE_APPLICATION_NAME}): stop it first`,
      );
    }
  }
}

/** Marks this command's use of an embedded store; returns how to unmark it. */
export function markEmbedded(l: StoreLocation): () => void {
  if (l.kind !== "file") return () => {};
  mkdirSync(resolve(l.dataDir), { recursive: true });
  const file = join(resolve(l.dataDir), COPY_LOCK);
  writeFileSync(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}
