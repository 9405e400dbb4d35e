/** Blog: posts from Markdown files with front matter, the rules of what is shown, and the source port. */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./front-matter.ts";
export { byNewest, getBlogPost, isPublished, listBlogPosts, summaryOf } from "./posts.ts";
export type { BlogListQuery, BlogPage } from "./posts.ts";
