import { parseDocument } from "yaml";
import { MAX_BODY_LENGTH, MAX_TITLE_LENGTH } from "./model.ts";

/**
 * One Markdown file of an imported archive as a note: its YAML front matter (`title`, `tags`,
 * `slug`; other keys are not kept), its title, and its body (the text without the front matter).
 * Pure: no store, no archive. docs/decisions/064-markdown-import.md.
 */

/** What a file says about its topic, before slugs and tags are settled across the archive. */
export interface MarkdownNote {
  title: string;
  /** Where the title came from: the front matter, the first `# ` heading, or the file's name. */
  titleFrom: "front_matter" | "heading" | "file_name";
  /** Tags the front matter names, as written (normalised later with the folders'). */
  tags: string[];
  /** The slug the front matter names, as written; null when it names none. */
  slug: string | null;
  body: string;
}

/** A problem with one file: `field` is where (`front_matter`, `title`, `tags`, `slug`, `body`, `text`). */
export interface NoteProblem {
  field: string;
  message: string;
}

/** Notion names exported pages `<title> <32 hex id>`: the id is no part of the name a person gave. */
const NOTION_ID = /\s+[0-9a-f]{32}$/i;

/** A path segment (folder or file name without extension) as a person named it: Notion's id cut off. */
export function segmentName(segment: string): string {
  const cut = segment.replace(NOTION_ID, "").trim();
  return cut || segment.trim();
}

const MARKDOWN_EXTENSION = /\.(md|markdown)$/i;

/** Whether a file is Markdown by its name: `.md` or `.markdown`, any case. */
export function isMarkdownPath(path: string): boolean {
  return MARKDOWN_EXTENSION.test(path);
}

/** The file's name without folders and without its Markdown extension. */
export function stem(path: string): string {
  return (path.split("/").pop() ?? path).replace(MARKDOWN_EXTENSION, "");
}

/** `---` on the first line (after a byte order mark), up to the next line that is `---` or `...`. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Splits a file's text into its front matter source (null when it has none) and the rest. */
export function splitFrontMatter(text: string): { frontMatter: string | null; body: string } {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { frontMatter: null, body: text.replace(/^\uFEFF/, "") };
  return { frontMatter: m[1] ?? "", body: text.slice(m[0].length) };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The first level-one ATX heading (`# Title`) outside fenced code, without closing `#`s. */
export function firstHeading(body: string): string | null {
  let fence: string | null = null;
  for (const line of body.split(/\r?\n/)) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (h && h[1]!.trim()) return h[1]!.trim();
  }
  return null;
}

/** Tags as front matter writes them: a list, or one string of names separated by commas or spaces; a leading `#` dropped. */
function readTags(value: unknown, problems: NoteProblem[]): string[] {
  if (value === undefined || value === null) return [];
  const raw = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : null;
  if (raw === null || raw.some((t) => typeof t !== "string" && typeof t !== "number")) {
    problems.push({ field: "tags", message: "front matter `tags` must be a list of names or one string of names" });
    return [];
  }
  return raw.map((t) => String(t).trim().replace(/^#/, "")).filter((t) => t.length > 0);
}

function readFrontMatter(source: string, problems: NoteProblem[]): Record<string, unknown> {
  // `core` schema: dates and the like stay strings; aliases are bounded by the library (maxAliasCount).
  const doc = parseDocument(source, { schema: "core", uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    problems.push({ field: "front_matter", message: `front matter is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}` });
    return {};
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    problems.push({ field: "front_matter", message: `front matter is not valid YAML: ${e instanceof Error ? e.message : String(e)}` });
    return {};
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    problems.push({ field: "front_matter", message: "front matter must be a mapping of keys to values" });
    return {};
  }
  return value as Record<string, unknown>;
}

function optionalString(fm: Record<string, unknown>, key: string, problems: NoteProblem[]): string | null {
  const v = fm[key];
  if (v === undefined || v === null) return null;
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") {
    problems.push({ field: key, message: `front matter \`${key}\` must be text` });
    return null;
  }
  return v.trim() || null;
}

/**
 * Reads one Markdown file (its bytes, UTF-8) at `path`. The title is the front matter's `title`,
 * else the first `# ` heading, else the file's name (Notion's id cut off). Problems are returned,
 * never thrown: the import lists them all.
 */
export function readMarkdownNote(path: string, bytes: Uint8Array): { note: MarkdownNote | null; problems: NoteProblem[] } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { note: null, problems: [{ field: "text", message: "the file is not UTF-8 text" }] };
  }
  // No store keeps U+0000 faithfully (PostgreSQL text cannot hold it).
  if (text.includes("\0")) return { note: null, problems: [{ field: "text", message: "the file holds a NUL character (U+0000)" }] };
  const problems: NoteProblem[] = [];
  const { frontMatter, body } = splitFrontMatter(text);
  const fm = frontMatter === null ? {} : readFrontMatter(frontMatter, problems);
  const fmTitle = optionalString(fm, "title", problems);
  const slug = optionalString(fm, "slug", problems);
  const tags = readTags(fm.tags, problems);
  const heading = fmTitle ? null : firstHeading(body);
  const title = (fmTitle ?? heading ?? (segmentName(stem(path)) || "Untitled")).normalize("NFC");
  const titleFrom = fmTitle ? "front_matter" : heading ? "heading" : "file_name";
  if (title.length > MAX_TITLE_LENGTH) {
    problems.push({
      field: "title",
      message: `the title (from the ${titleFrom.replace("_", " ")}) is longer than ${MAX_TITLE_LENGTH} characters`,
    });
  }
  if (body.length > MAX_BODY_LENGTH) problems.push({ field: "body", message: `the body is longer than ${MAX_BODY_LENGTH} characters` });
  if (problems.length > 0) return { note: null, problems };
  return { note: { title, titleFrom, tags, slug, body }, problems };
}
