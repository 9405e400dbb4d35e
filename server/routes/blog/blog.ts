import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { BLOG_LIMIT, BLOG_SLUG_PATTERN, BlogPostPage, BlogPostView, getBlogPost, listBlogPosts } from "../../../core/blog/mod.ts";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import type { ServerDeps } from "../../deps.ts";
import { ifNoneMatchHits } from "../../http/etag.ts";
import { limitParam, offsetParam } from "../../http/query-schemas.ts";
import { errors, publicOperation, strict } from "../../http/schemas.ts";
import { renderMarkdown } from "../../http/share-page.ts";

const BlogQuery = Type.Object(
  {
    limit: limitParam(BLOG_LIMIT, "Posts per page"),
    offset: offsetParam,
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: "Only posts carrying this tag (exact match)." })),
  },
  strict,
);
const SlugParams = Type.Object({ slug: Type.String({ pattern: BLOG_SLUG_PATTERN, description: "The post's slug." }) }, strict);
const Conditional = Type.Object({
  "if-none-match": Type.Optional(
    Type.String({ description: "An `ETag` of a previous answer: 304 with no body while it still names this one." }),
  ),
  "if-modified-since": Type.Optional(
    Type.String({ description: "An HTTP date: 304 with no body if nothing changed since (ignored when `If-None-Match` is sent)." }),
  ),
});
const NotModified = Type.Any({ description: "Not modified: the answer is still the one the `ETag` or date names. No body." });
const CACHE_CONTROL = "public, max-age=300";

type Set = { headers: Record<string, unknown> };

/** A strong validator of the exact JSON answered: its SHA-256. */
function strongEtag(body: unknown): string {
  return `"${encodeBase64urlNoPadding(sha256(new TextEncoder().encode(JSON.stringify(body))))}"`;
}

/**
 * Sets the validators and caching of a public answer and says whether the request's
 * preconditions make it a 304 (RFC 9110 §13.2.2: `If-None-Match` decides when present,
 * `If-Modified-Since` only without it; dates compare at one-second precision).
 */
function notModified(set: Set, headers: Record<string, string | undefined>, body: unknown, lastModified: string): boolean {
  const etag = strongEtag(body);
  set.headers.etag = etag;
  set.headers["last-modified"] = new Date(lastModified).toUTCString();
  set.headers["cache-control"] = CACHE_CONTROL;
  const inm = headers["if-none-match"];
  if (inm !== undefined) return ifNoneMatchHits(inm, etag);
  const ims = headers["if-modified-since"];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(Date.parse(lastModified) / 1000) <= Math.floor(since / 1000);
}

const bare304 = (set: Set) => new Response(null, { status: 304, headers: set.headers as Record<string, string> }) as never;

/** The public blog: posts from BLOG_DIR, cacheable by anyone for five minutes. */
export function blogRoutes(deps: ServerDeps) {
  const source = deps.blog;
  const empty = { load: async () => ({ posts: [], changed_at: new Date(0).toISOString() }) };
  const doc = (summary: string, description: string) => ({ ...publicOperation, tags: ["blog"], summary, description });
  return new Elysia({ name: "blog" })
    .get(
      "/blog/posts",
      async ({ query, headers, set }) => {
        const { last_modified, ...page } = await listBlogPosts(source ?? empty, deps.core.clock.now(), query);
        if (notModified(set, headers, page, last_modified)) return bare304(set);
        return page;
      },
      {
        query: BlogQuery,
        headers: Conditional,
        response: { 200: BlogPostPage, 304: NotModified, ...errors(400) },
        detail: doc(
          "List blog posts",
          `Public. Published posts, newest first (equal dates by slug); drafts and posts dated in the future are not shown. \`limit\` 1 to ${BLOG_LIMIT.max} (default ${BLOG_LIMIT.default}). A strong \`ETag\` (the answer's SHA-256) and \`Last-Modified\`; \`If-None-Match\` or \`If-Modified-Since\` that still hold answer 304 with no body. \`Cache-Control: public, max-age=300\`.`,
        ),
      },
    )
    .get(
      "/blog/posts/:slug",
      async ({ params, headers, set }) => {
        const { post, last_modified } = await getBlogPost(source ?? empty, deps.core.clock.now(), params.slug);
        const view = {
          slug: post.slug,
          title: post.title,
          summary: post.summary,
          author: post.author,
          tags: post.tags,
          published_at: post.published_at,
          updated_at: post.updated_at,
          html: renderMarkdown(post.markdown),
          markdown: post.markdown,
        };
        if (notModified(set, headers, view, last_modified)) return bare304(set);
        return view;
      },
      {
        params: SlugParams,
        headers: Conditional,
        response: { 200: BlogPostView, 304: NotModified, ...errors(400, 404) },
        detail: doc(
          "Read a blog post",
          "Public. The post with its Markdown (`markdown`) and the HTML it renders to (`html`: raw HTML in the Markdown is escaped, `javascript:` and other unsafe links are not links). A draft, a post dated in the future or an unknown slug is a 404. Validators and caching as the list's.",
        ),
      },
    );
}
