import type { BlogFile, BlogPost } from "./model.ts";
import { BLOG_SLUG_PATTERN, MAX_BLOG_TAG_LENGTH } from "./dto.ts";

const SLUG = new RegExp(BLOG_SLUG_PATTERN);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const KNOWN = new Set(["title", "slug", "summary", "author", "tags", "published_at", "updated_at", "draft"]);

/** A post, or why its file is not one (a sentence for the warning). */
export type PostOrProblem = { post: BlogPost } | { problem: string };

function timestamp(value: unknown, field: string): string {
  // A YAML timestamp parsed to a Date by a permissive schema is taken too.
  const raw = value instanceof Date ? value.toISOString() : value;
  if (typeof raw !== "string" || !(DATE_ONLY.test(raw) || DATE_TIME.test(raw))) {
    throw new Error(`${field} is not an ISO 8601 date or date-time`);
  }
  const [y, m, d] = raw.slice(0, 10).split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const at = new Date(DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(at.getTime()) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) throw new Error(`${field} is not a real date`);
  return at.toISOString();
}

function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new Error(`${field} is not text`);
  const text = value.trim();
  if (text.length > max) throw new Error(`${field} is longer than ${max} characters`);
  return text === "" ? null : text;
}

/**
 * A post from its file: the front matter must be a mapping with `title` and `published_at`;
 * `slug` defaults to the file name without `.md`; `summary`, `author`, `tags` (a list of text),
 * `updated_at` and `draft` (true or false) are optional. Dates are ISO 8601 (`2026-05-04` is
 * midnight UTC) and come out as UTC date-times. An unknown key is a problem: a typo
 * (`publised_at`) should not silently publish a post without its date.
 */
export function postFromFile(file: BlogFile): PostOrProblem {
  try {
    const fm = file.front_matter;
    if (typeof fm !== "object" || fm === null || Array.isArray(fm)) throw new Error("no front matter mapping");
    const data = fm as Record<string, unknown>;
    const unknown = Object.keys(data).filter((k) => !KNOWN.has(k));
    if (unknown.length > 0) throw new Error(`unknown front matter keys: ${unknown.join(", ")}`);
    const title = optionalText(data.title, "title", 300);
    if (title === null) throw new Error("title is required");
    if (data.published_at === undefined || data.published_at === null) throw new Error("published_at is required");
    const slug = data.slug === undefined ? file.name.replace(/\.md$/i, "") : data.slug;
    if (typeof slug !== "string" || !SLUG.test(slug)) {
      throw new Error(`slug "${String(slug)}" is not lowercase letters, digits and dashes (at most 100)`);
    }
    const tags = data.tags ?? [];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t.trim() === "" || t.length > MAX_BLOG_TAG_LENGTH)) {
      throw new Error(`tags is not a list of text of at most ${MAX_BLOG_TAG_LENGTH} characters`);
    }
    const draft = data.draft ?? false;
    if (typeof draft !== "boolean") throw new Error("draft is not true or false");
    return {
      post: {
        slug,
        title,
        summary: optionalText(data.summary, "summary", 1000),
        author: optionalText(data.author, "author", 200),
        tags: [...new Set((tags as string[]).map((t) => t.trim()))],
        published_at: timestamp(data.published_at, "published_at"),
        updated_at: data.updated_at === undefined || data.updated_at === null ? null : timestamp(data.updated_at, "updated_at"),
        draft,
        markdown: file.markdown,
      },
    };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}
