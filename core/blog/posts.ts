import { notFound } from "../kernel/errors.ts";
import { type OffsetQuery, parseOffsetPage } from "../kernel/paging.ts";
import { BLOG_LIMIT } from "./dto.ts";
import type { BlogPost, LoadedPost } from "./model.ts";
import type { BlogSource } from "./ports.ts";

export interface BlogListQuery extends OffsetQuery {
  tag?: string;
}

/** A post as the list shows it. */
export type BlogPostSummary = Omit<BlogPost, "draft" | "markdown">;

/** Whether readers see a post at `now`: not a draft, and published already. */
export function isPublished(post: BlogPost, now: Date): boolean {
  return !post.draft && Date.parse(post.published_at) <= now.getTime();
}

/** Newest first; equal dates by slug, so the order is total and pages do not overlap. */
export function byNewest(a: BlogPost, b: BlogPost): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

export function summaryOf(p: BlogPost): BlogPostSummary {
  return {
    slug: p.slug,
    title: p.title,
    summary: p.summary,
    author: p.author,
    tags: p.tags,
    published_at: p.published_at,
    updated_at: p.updated_at,
  };
}

/** The latest of a post's own dates and its file's: when its representation last changed. */
function lastChange(l: LoadedPost): number {
  return Math.max(Date.parse(l.modified_at), Date.parse(l.post.published_at), Date.parse(l.post.updated_at ?? l.post.published_at));
}

export interface BlogPage {
  posts: BlogPostSummary[];
  total: number;
  has_more: boolean;
  /** When this answer last changed: its posts' latest change, or the set of files'. */
  last_modified: string;
}

/** Published posts, newest first, optionally of one tag (exact match). */
export async function listBlogPosts(source: BlogSource, now: Date, query: BlogListQuery): Promise<BlogPage> {
  const page = parseOffsetPage(query, BLOG_LIMIT);
  const { posts, changed_at } = await source.load();
  const shown = posts.filter((l) => isPublished(l.post, now) && (query.tag === undefined || l.post.tags.includes(query.tag)));
  shown.sort((a, b) => byNewest(a.post, b.post));
  const items = shown.slice(page.offset, page.offset + page.limit);
  const latest = Math.max(Date.parse(changed_at), ...shown.map(lastChange));
  return {
    posts: items.map((l) => summaryOf(l.post)),
    total: shown.length,
    has_more: page.offset + items.length < shown.length,
    last_modified: new Date(Math.min(latest, now.getTime())).toISOString(),
  };
}

/** One published post; a draft, a future post or an unknown slug is NOT_FOUND alike. */
export async function getBlogPost(source: BlogSource, now: Date, slug: string): Promise<{ post: BlogPost; last_modified: string }> {
  const { posts } = await source.load();
  const found = posts.find((l) => l.post.slug === slug && isPublished(l.post, now));
  if (!found) throw notFound("Blog post");
  return { post: found.post, last_modified: new Date(Math.min(lastChange(found), now.getTime())).toISOString() };
}
