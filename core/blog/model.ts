import { type Static, Type } from "@sinclair/typebox";

/** A post as the blog keeps it: its front matter, checked, and its Markdown body. */
export const BlogPost = Type.Object({
  slug: Type.String(),
  title: Type.String(),
  summary: Type.Union([Type.String(), Type.Null()]),
  author: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  published_at: Type.String(),
  updated_at: Type.Union([Type.String(), Type.Null()]),
  draft: Type.Boolean(),
  markdown: Type.String(),
});
export type BlogPost = Static<typeof BlogPost>;

/**
 * A post's file as a source read it: its name, its front matter already parsed (any value: the
 * rules below check it), its body, and when the file last changed (for `Last-Modified`).
 */
export interface BlogFile {
  name: string;
  front_matter: unknown;
  markdown: string;
  modified_at: string;
}

/** A loaded post: the post and its file's modification time. */
export interface LoadedPost {
  post: BlogPost;
  modified_at: string;
}
