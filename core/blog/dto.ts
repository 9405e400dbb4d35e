import { Type } from "@sinclair/typebox";
import type { LimitRule } from "../kernel/paging.ts";

/** Posts per page: 1 to 200, default 20. */
export const BLOG_LIMIT: LimitRule = { default: 20, max: 200 };
export const BLOG_SLUG_PATTERN = "^[a-z0-9][a-z0-9-]{0,99}$";
export const MAX_BLOG_TAG_LENGTH = 50;

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/** A post as the list shows it: everything but its body. */
export const BlogPostSummary = Type.Object({
  slug: Type.String({ description: "The post's address: its front matter's `slug`, else its file name without `.md`." }),
  title: Type.String(),
  summary: Nullable(Type.String({ description: "A sentence or two for a list, or null." })),
  author: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  published_at: Type.String({ format: "date-time" }),
  updated_at: Nullable(Type.String({ format: "date-time", description: "When the post was last revised, or null." })),
});

/** A post with its body: the Markdown as written and the HTML it renders to. */
export const BlogPostView = Type.Composite([
  BlogPostSummary,
  Type.Object({
    html: Type.String({
      description:
        "The body rendered (CommonMark): raw HTML in the Markdown is escaped as text, unsafe links (`javascript:` …) are not links.",
    }),
    markdown: Type.String({ description: "The body as written, without its front matter." }),
  }),
]);

export const BlogPostPage = Type.Object({
  posts: Type.Array(BlogPostSummary),
  total: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
});
