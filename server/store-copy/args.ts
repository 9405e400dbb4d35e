/**
 * The arguments of `npm run store:copy` (ADR 069): where from, where to, and the operator's
 * say-so for what the command cannot check itself.
 */

/** A store the command opens: the embedded one in a data dir, a PostgreSQL or a MongoDB server. */
export type StoreLocation =
  | { kind: "file"; dataDir: string }
  | { kind: "postgres"; url: string }
  | { kind: "mongo"; url: string };

export interface CopyArgs {
  from: StoreLocation;
  to: StoreLocation;
  /** Continue a copy cut short: the target may hold what an earlier run wrote. */
  resume: boolean;
  /** Read a live source in one snapshot (PostgreSQL `REPEATABLE READ`). */
  snapshot: boolean;
  /** The operator says no server uses the source (what the command cannot detect: MongoDB, a stale PGlite lock). */
  sourceStopped: boolean;
}

export const USAGE = `usage: npm run store:copy -- --from <store> --to <store> [--resume] [--snapshot] [--source-stopped]
  <store>: file:<DATA_DIR> (the embedded store), postgres://user:pass@host:port/db, mongodb://host:port/db
  --resume          continue a copy that was cut short (the target holds part of it)
  --snapshot        read a live PostgreSQL source in one REPEATABLE READ snapshot
  --source-stopped  no server uses the source (required for MongoDB, which cannot be checked)
  SECRET_KEY (env) seals API keys; for file: stores DATA_DIR/secret.key is used when it is unset.`;

/** A store argument, or why it is not one. */
export function parseLocation(text: string): StoreLocation | string {
  if (text.startsWith("file:")) {
    const dataDir = text.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    return dataDir ? { kind: "file", dataDir } : "file: needs a data directory (file:./data)";
  }
  if (/^postgres(ql)?:\/\/./.test(text)) return { kind: "postgres", url: text };
  if (/^mongodb:\/\/./.test(text)) return { kind: "mongo", url: text };
  return `not a store: ${JSON.stringify(redact(text))} (use file:<DATA_DIR>, postgres://… or mongodb://…)`;
}

/** A location for messages: a URL's password left out. */
export function redact(text: string): string {
  return text.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}

export function describeLocation(l: StoreLocation): string {
  return l.kind === "file" ? `file:${l.dataDir}` : redact(l.url);
}

/** Two locations naming the same store (as far as their text tells). */
function same(a: StoreLocation, b: StoreLocation): boolean {
  if (a.kind !== b.kind) return false;
  const key = (l: StoreLocation) => (l.kind === "file" ? l.dataDir.replace(/\/+$/, "") : l.url.replace(/\/+$/, ""));
  return key(a) === key(b);
}

/** The parsed arguments, or the message that says what is wrong (exit code 2 with the usage). */
export function parseArgs(argv: readonly string[]): CopyArgs | string {
  let from: string | undefined;
  let to: string | undefined;
  const flags = { resume: false, snapshot: false, sourceStopped: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [name, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (name === "--from" || name === "--to") {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--")) return `${name} needs a store`;
      if ((name === "--from" ? from : to) !== undefined) return `${name} given twice`;
      if (name === "--from") from = value;
      else to = value;
    } else if (a === "--resume") flags.resume = true;
    else if (a === "--snapshot") flags.snapshot = true;
    else if (a === "--source-stopped") flags.sourceStopped = true;
    else return `unknown argument: ${JSON.stringify(redact(a))}`;
  }
  if (from === undefined) return "--from is required";
  if (to === undefined) return "--to is required";
  const source = parseLocation(from);
  if (typeof source === "string") return `--from: ${source}`;
  const target = parseLocation(to);
  if (typeof target === "string") return `--to: ${target}`;
  if (same(source, target)) return "--from and --to name the same store";
  if (flags.snapshot && source.kind !== "postgres") {
    return `--snapshot: only a PostgreSQL source offers one (${
      source.kind === "mongo"
        ? "MongoDB has none: stop the server and pass --source-stopped"
        : "the embedded store is opened by one process: stop the server"
    })`;
  }
  return { from: source, to: target, ...flags };
}
