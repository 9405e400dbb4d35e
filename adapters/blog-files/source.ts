import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { type BlogFile, type BlogSource, type LoadedPost, postFromFile } from "../../core/blog/mod.ts";

/** Front matter: a first line `---`, YAML, a line `---`; the rest is the body. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The largest post file read; a bigger one is skipped with a warning. */
export const MAX_POST_BYTES = 1024 * 1024;

export type BlogWarn = (msg: string, fields: Record<string, unknown>) => void;

/** Splits a file into front matter (parsed as YAML 1.2, core schema) and body; throws on bad YAML. */
export function splitFrontMatter(text: string): { front_matter: unknown; markdown: string } {
  const m = FRONT_MATTER.exec(text);
  if (!m) throw new Error("no front matter: the file must start with a line ---");
  // The core schema: timestamps stay text (checked by core), no custom tags, aliases bounded.
  const front_matter = parse(m[1]!, { schema: "core", maxAliasCount: 10, prettyErrors: false, uniqueKeys: true });
  return { front_matter, markdown: text.slice(m[0].length).replace(/^(\r?\n)+/, "") };
}

interface Cached {
  mtimeMs: number;
  size: number;
  result: LoadedPost | null;
}

/**
 * The blog as a directory of `*.md` files (BLOG_DIR). Each load lists the directory and stats the
 * files; a file is read and parsed again only when its modification time or size changed, so
 * edits show without a restart and an unchanged blog costs a directory listing. A file that is
 * not a post (no front matter, bad YAML, a missing or wrong field, a slug another file already
 * took) is skipped with a warning, once per version of the file. A missing directory is an empty
 * blog (warned once).
 */
export function createFileBlogSource(dir: string, warn: BlogWarn = () => {}): BlogSource {
  const cache = new Map<string, Cached>();
  let warnedMissing = false;
  const warnedTaken = new Set<string>();
  return {
    async load() {
      let names: string[];
      let changed_at: string;
      try {
        const [entries, dirStat] = await Promise.all([readdir(dir), stat(dir)]);
        names = entries.filter((n) => n.toLowerCase().endsWith(".md")).sort();
        changed_at = dirStat.mtime.toISOString();
      } catch (e) {
        if (!warnedMissing) warn("blog directory unreadable: no posts", { dir, error: (e as Error).message });
        warnedMissing = true;
        return { posts: [], changed_at: new Date(0).toISOString() };
      }
      warnedMissing = false;
      const loaded = await Promise.all(names.map(async (name) => {
        const path = join(dir, name);
        try {
          const s = await stat(path);
          if (!s.isFile()) return null;
          const hit = cache.get(name);
          if (hit && hit.mtimeMs === s.mtimeMs && hit.size === s.size) return hit.result;
          let result: LoadedPost | null = null;
          if (s.size > MAX_POST_BYTES) {
            warn("blog post skipped", { file: name, reason: `larger than ${MAX_POST_BYTES} bytes` });
          } else {
            try {
              const file: BlogFile = { name, ...splitFrontMatter(await readFile(path, "utf8")), modified_at: s.mtime.toISOString() };
              const parsed = postFromFile(file);
              if ("problem" in parsed) warn("blog post skipped", { file: name, reason: parsed.problem });
              else result = { post: parsed.post, modified_at: file.modified_at };
            } catch (e) {
              warn("blog post skipped", { file: name, reason: (e as Error).message.split("\n")[0] });
            }
          }
          cache.set(name, { mtimeMs: s.mtimeMs, size: s.size, result });
          return result;
        } catch {
          return null; // removed between the listing and the stat
        }
      }));
      for (const name of cache.keys()) if (!names.includes(name)) cache.delete(name);
      // Two files of one slug: the first by file name wins, the other is skipped.
      const bySlug = new Map<string, LoadedPost>();
      loaded.forEach((l, i) => {
        if (!l) return;
        if (bySlug.has(l.post.slug)) {
          const key = `${names[i]}:${l.modified_at}`;
          if (!warnedTaken.has(key)) {
            warn("blog post skipped", { file: names[i], reason: `slug "${l.post.slug}" is taken by another file` });
          }
          warnedTaken.add(key);
        } else bySlug.set(l.post.slug, l);
      });
      return { posts: [...bySlug.values()], changed_at };
    },
  };
}
