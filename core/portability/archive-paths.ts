import { TOPIC_SLUG_PATTERN } from "../topics/mod.ts";
import { ARCHIVE_KINDS, ARCHIVE_MANIFEST_PATH, ARCHIVE_MAX_PARTS, type ArchiveKind } from "./model.ts";

/**
 * The names an archive may hold, and nothing else: `manifest.json`, `data/<kind>.<NNNN>.ndjson`
 * and `topics/<slug>.md` (and the two folders, which tar tools add when they repack). Any other
 * name is refused, and a name that could leave the folder it is unpacked into (absolute,
 * `..`, a backslash, a drive letter, a control character) is refused as unsafe before anything else.
 */

export function dataPartPath(kind: ArchiveKind, part: number): string {
  return `data/${kind}.${String(part).padStart(4, "0")}.ndjson`;
}

export function topicMarkdownPath(slug: string): string {
  return `topics/${slug}.md`;
}

export type ArchivePath =
  | { type: "manifest" }
  | { type: "data"; kind: ArchiveKind; part: number }
  | { type: "markdown"; slug: string }
  | { type: "folder" }
  | { type: "unsafe"; reason: string }
  | { type: "unknown" };

const KINDS: ReadonlySet<string> = new Set(ARCHIVE_KINDS);
const DATA = /^data\/([a-z_]+)\.(\d{4})\.ndjson$/;
const MARKDOWN = /^topics\/([^/]+)\.md$/;
const SLUG = new RegExp(TOPIC_SLUG_PATTERN);
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What an entry's name is in the format, or why it is refused. */
export function parseArchivePath(name: string): ArchivePath {
  if (name === "") return { type: "unsafe", reason: "an empty name" };
  if (CONTROL.test(name)) return { type: "unsafe", reason: "a control character in the name" };
  if (name.includes("\\")) return { type: "unsafe", reason: "a backslash in the name" };
  if (name.startsWith("/")) return { type: "unsafe", reason: "an absolute path" };
  if (/^[A-Za-z]:/.test(name)) return { type: "unsafe", reason: "a drive letter" };
  const segments = name.replace(/\/$/, "").split("/");
  if (segments.some((s) => s === "..")) return { type: "unsafe", reason: "a `..` segment" };
  if (segments.some((s) => s === "." || s === "")) return { type: "unsafe", reason: "an empty or `.` segment" };
  if (name === ARCHIVE_MANIFEST_PATH) return { type: "manifest" };
  if (name === "data/" || name === "topics/") return { type: "folder" };
  const data = DATA.exec(name);
  if (data && KINDS.has(data[1]!)) {
    const part = Number(data[2]);
    if (part >= 1 && part <= ARCHIVE_MAX_PARTS) return { type: "data", kind: data[1] as ArchiveKind, part };
  }
  const md = MARKDOWN.exec(name);
  if (md && SLUG.test(md[1]!)) return { type: "markdown", slug: md[1]! };
  return { type: "unknown" };
}
