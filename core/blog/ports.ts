import type { LoadedPost } from "./model.ts";

/**
 * Where the blog's posts come from (adapters/blog-files/ reads a directory of Markdown files).
 * `load` answers every well-formed post, drafts and future ones included (the rules decide what
 * is shown), and `changed_at`: when the set of files last changed (a file added or removed), so a
 * list's `Last-Modified` moves when a post disappears too. A bad file is left out (the source
 * warns), never a failure of the whole blog.
 */
export interface BlogSource {
  load(): Promise<{ posts: LoadedPost[]; changed_at: string }>;
}
