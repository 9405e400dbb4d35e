import { Type } from "@sinclair/typebox";
import { TopicSlugSchema } from "../../../core/topics/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import { strict } from "../../http/schemas.ts";
import type { workspaceScope } from "../../http/workspace-scope.ts";

/**
 * What the parts of the topic route table share (topics.ts registers the table once per base
 * path, `/topics` and the deprecated `/watchers`; links.ts, sharing.ts and
 * ../code-context/code-context.ts add to it). A route under `/topics` belongs here, so its twin
 * cannot be forgotten (tests/api/watchers-twins.test.ts checks every one).
 */
export type TopicScope = ReturnType<typeof workspaceScope>;

/** OpenAPI `detail` of a topic route; under `/watchers` it says deprecated. */
export type TopicDoc = (summary: string, description?: string) => {
  security: Array<Record<string, string[]>>;
  tags: string[];
  summary: string;
  description?: string;
  deprecated?: boolean;
};

export const SlugParams = Type.Object({ slug: SlugSchema }, strict);
export const TopicParams = Type.Object({ slug: SlugSchema, topic: TopicSlugSchema }, strict);
