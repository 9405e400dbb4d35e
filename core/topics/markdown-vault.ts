import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { MAX_TAGS_PER_TOPIC } from "./model.ts";
import { type MarkdownNote, segmentName, stem } from "./markdown-note.ts";
import { normalizeTagName } from "./tag-name.ts";
import { sortedTags } from "./topic-change.ts";
import { MAX_TOPIC_SLUG_LENGTH, RESERVED_TOPIC_SLUGS, slugFromTitle, TOPIC_SLUG_PATTERN } from "./topic-slug.ts";

/**
 * An archive's Markdown files settled as topics-to-be: each one's slug and tags, decided across
 * the whole archive so that the same archive always gives the same slugs. Pure.
 * docs/decisions/064-markdown-import.md ("Slugs" and "Tags").
 */

export interface VaultNote {
  path: string;
  note: MarkdownNote;
}

export interface SettledNote {
  path: string;
  title: string;
  body: string;
  /** Normalised and sorted: the front matter's and the folders'. */
  tags: string[];
  slug: string;
  slugFrom: "front_matter" | "path";
  /** What the import could not take from the file, said for its report line. */
  warnings: string[];
}

export interface VaultProblem {
  path: string;
  field: string;
  message: string;
}

/**
 * The one folder every Markdown file sits in, when there is one (`MyVault/`, Notion's
 * `Export-…/`): the archive's wrapper, no part of any note's place, so neither a tag nor part of
 * a slug.
 */
export function commonRoot(paths: readonly string[]): string | null {
  let root: string | null = null;
  for (const p of paths) {
    const i = p.indexOf("/");
    if (i < 0) return null;
    const first = p.slice(0, i);
    if (root === null) root = first;
    else if (root !== first) return null;
  }
  return root;
}

/** The path below the root, `/`-separated segments: folders, then the file. */
function placeOf(path: string, root: string | null): string[] {
  const inner = root === null ? path : path.slice(root.length + 1);
  return inner.split("/");
}

/** `<base>-<8 hex of SHA-256(path)>`, cut to the slug maximum at a dash boundary. */
export function hashedSlug(base: string, path: string): string {
  const suffix = `-${encodeHexLowerCase(sha256(new TextEncoder().encode(path))).slice(0, 8)}`;
  return `${base.slice(0, MAX_TOPIC_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
}

/** The slug a path gives: its folders and file name (Notion ids cut off), as `slugFromTitle` makes one of a title. */
export function slugFromPath(path: string, root: string | null): string {
  const place = placeOf(path, root);
  const names = [...place.slice(0, -1), stem(place[place.length - 1]!)].map(segmentName);
  return slugFromTitle(names.join(" "));
}

const SLUG = new RegExp(TOPIC_SLUG_PATTERN);

function frontMatterSlugProblem(slug: string): string | null {
  if (slug.length > MAX_TOPIC_SLUG_LENGTH || !SLUG.test(slug)) {
    return `front matter \`slug\` must be lowercase letters, digits and single dashes, at most ${MAX_TOPIC_SLUG_LENGTH} characters`;
  }
  if (RESERVED_TOPIC_SLUGS.has(slug)) return `front matter \`slug\` ${slug} is reserved (it names a fixed path)`;
  return null;
}

/**
 * Settles every file's slug and tags.
 * - Slugs: a front matter `slug` is taken as it is (two files naming the same one is a problem of
 *   both). The others derive one from their path; in byte order of their paths, the first file
 *   to derive a slug keeps it, and a later file deriving a slug already held (or a reserved word)
 *   takes `<slug>-<8 hex of the SHA-256 of its path>`. So the same archive gives the same slugs,
 *   and a file's hashed slug does not depend on the other files.
 * - Tags: the front matter's, then one per folder below the root (Notion ids cut off), each by
 *   `normalizeTagName`. A folder name that makes no tag (over 64 characters) is left out and said
 *   in the file's warnings; an invalid front matter tag is a problem.
 */
export function settleVault(files: readonly VaultNote[]): { notes: SettledNote[]; problems: VaultProblem[] } {
  const problems: VaultProblem[] = [];
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const root = commonRoot(sorted.map((f) => f.path));

  // Front matter slugs first: they are the files' own.
  const chosen = new Map<string, string[]>();
  for (const f of sorted) {
    if (f.note.slug === null) continue;
    const problem = frontMatterSlugProblem(f.note.slug);
    if (problem) problems.push({ path: f.path, field: "slug", message: problem });
    else chosen.set(f.note.slug, [...(chosen.get(f.note.slug) ?? []), f.path]);
  }
  for (const [slug, paths] of chosen) {
    if (paths.length < 2) continue;
    for (const path of paths) {
      problems.push({
        path,
        field: "slug",
        message: `front matter \`slug\` ${slug} is also the slug of ${paths.filter((p) => p !== path).join(", ")}`,
      });
    }
  }

  const held = new Set(chosen.keys());
  const notes: SettledNote[] = [];
  for (const f of sorted) {
    const warnings: string[] = [];
    let slug: string;
    let slugFrom: SettledNote["slugFrom"];
    if (f.note.slug !== null) {
      slug = f.note.slug;
      slugFrom = "front_matter";
    } else {
      const base = slugFromPath(f.path, root);
      slug = held.has(base) || RESERVED_TOPIC_SLUGS.has(base) ? hashedSlug(base, f.path) : base;
      if (held.has(slug)) {
        problems.push({ path: f.path, field: "slug", message: `the slug derived from the path, ${slug}, is held by another file` });
        continue;
      }
      held.add(slug);
      slugFrom = "path";
    }

    const tags: string[] = [];
    for (const raw of f.note.tags) {
      const name = normalizeTagName(raw);
      if (name === null) {
        problems.push({
          path: f.path,
          field: "tags",
          message: `invalid tag ${JSON.stringify(raw)}: a tag is 1 to 64 characters after normalisation`,
        });
      } else tags.push(name);
    }
    for (const folder of placeOf(f.path, root).slice(0, -1)) {
      const name = normalizeTagName(segmentName(folder));
      if (name === null) warnings.push(`folder ${JSON.stringify(folder)} makes no tag (over 64 characters)`);
      else tags.push(name);
    }
    const all = sortedTags(tags);
    if (all.length > MAX_TAGS_PER_TOPIC) {
      problems.push({
        path: f.path,
        field: "tags",
        message: `${all.length} tags (front matter and folders): at most ${MAX_TAGS_PER_TOPIC}`,
      });
    }
    notes.push({ path: f.path, title: f.note.title, body: f.note.body, tags: all, slug, slugFrom, warnings });
  }
  return { notes, problems };
}
