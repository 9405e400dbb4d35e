/**
 * The links of a Markdown body that may name another file of the same archive, and how each
 * resolves to one of its files: relative links (`[x](other.md)`, Notion's `Name%20abc….md`),
 * reference definitions (`[x]: other.md`) and Obsidian's wikilinks (`[[Note]]`, `[[Note|alias]]`,
 * `[[folder/Note#Heading]]`). Images (`![alt](a.png)`) are not links. Pure.
 * docs/decisions/064-markdown-import.md.
 */

/** A link as written: a path relative to the linking file (or to the archive's root when it starts with `/`), or a wikilink's name. */
export type NoteLink = { kind: "path"; target: string } | { kind: "wiki"; target: string };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** `[text](destination "title")`, text with one level of nested brackets; not preceded by `!` (an image). */
const INLINE =
  /(!?)\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
/** `[label]: destination` at the start of a line (a reference definition). */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/;
/** `[[target]]`, `[[target|alias]]`, `![[target]]` (an embed: a link only when it names a note). */
const WIKI = /!?\[\[([^\][|\n]+)(?:\|[^\]\n]*)?\]\]/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The destination as a path, or null when it is no file of an archive (a URL, an anchor, empty). */
function pathOf(destination: string): string | null {
  let d = destination.trim();
  if (d.startsWith("<") && d.endsWith(">")) d = d.slice(1, -1).trim();
  if (!d || d.startsWith("#") || d.startsWith("//") || SCHEME.test(d)) return null;
  d = d.replace(/[?#].*$/, "");
  if (!d) return null;
  try {
    d = decodeURIComponent(d);
  } catch {
    // A stray `%`: the destination as written.
  }
  return d.normalize("NFC");
}

/** Every link of `body` that may name a file, in order of appearance, outside code (fenced blocks and inline spans). */
export function extractLinks(body: string): NoteLink[] {
  const out: NoteLink[] = [];
  let fence: string | null = null;
  for (const raw of body.split(/\r?\n/)) {
    const f = FENCE.exec(raw);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    // Inline code spans hold no links.
    const line = raw.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length));
    const def = DEFINITION.exec(line);
    if (def) {
      const target = pathOf(def[1]!);
      if (target) out.push({ kind: "path", target });
    }
    for (const m of line.matchAll(INLINE)) {
      if (m[1] === "!") continue;
      const target = pathOf(m[2]!);
      if (target) out.push({ kind: "path", target });
    }
    for (const m of line.matchAll(WIKI)) {
      const target = m[1]!.replace(/[#^].*$/, "").trim().normalize("NFC");
      if (target) out.push({ kind: "wiki", target });
    }
  }
  return out;
}

/** `a/./b/../c` → `a/c`; null when `..` climbs above the root. */
function normalizePath(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

const MARKDOWN_EXTENSION = /\.(md|markdown)$/i;
const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/**
 * The Markdown files of one archive, by path, and the lookups links need. Paths are the
 * archive's (NFC, `/`-separated, no leading `./`).
 */
export class NoteIndex {
  readonly #paths: Set<string>;
  /** Lowercased name without extension → paths holding it, for wikilinks. */
  readonly #byName = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    this.#paths = new Set(paths);
    for (const p of [...this.#paths].sort()) {
      const name = (p.split("/").pop() ?? p).replace(MARKDOWN_EXTENSION, "").toLowerCase();
      const list = this.#byName.get(name) ?? [];
      list.push(p);
      this.#byName.set(name, list);
    }
  }

  /** The file `link`, written in the file at `from`, names; null when it names none of the archive's Markdown files. */
  resolve(from: string, link: NoteLink): string | null {
    return link.kind === "path" ? this.#resolvePath(from, link.target) : this.#resolveWiki(from, link.target);
  }

  #resolvePath(from: string, target: string): string | null {
    const joined = target.startsWith("/") ? target : `${dirOf(from)}/${target}`;
    const path = normalizePath(joined);
    if (path === null) return null;
    if (this.#paths.has(path)) return path;
    // Some tools link notes without their extension.
    for (const ext of [".md", ".markdown"]) if (this.#paths.has(path + ext)) return path + ext;
    return null;
  }

  /**
   * Obsidian's rule: a name matches the files of that name (case-insensitive, extension
   * optional); a name with folders matches the files whose path ends with them. Several: the
   * one in the linking file's folder, else the shortest path, else the first in byte order.
   */
  #resolveWiki(from: string, target: string): string | null {
    const bare = target.replace(MARKDOWN_EXTENSION, "");
    const parts = bare.split("/").filter((s) => s !== "");
    if (parts.length === 0) return null;
    const name = parts[parts.length - 1]!.toLowerCase();
    const suffix = parts.join("/").toLowerCase();
    const candidates = (this.#byName.get(name) ?? []).filter((p) => {
      const lower = p.replace(MARKDOWN_EXTENSION, "").toLowerCase();
      return lower === suffix || lower.endsWith(`/${suffix}`);
    });
    if (candidates.length <= 1) return candidates[0] ?? null;
    const here = dirOf(from);
    const sameFolder = candidates.find((p) => dirOf(p) === here);
    if (sameFolder) return sameFolder;
    return [...candidates].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0]!;
  }
}
