import { type Static, type TObject, Type } from "@sinclair/typebox";
import type { Principal, ScopedOperation } from "../../core/access/mod.ts";
import { matchFiles, MatchFilesDto, MatchFilesFullResult, retrieve, RetrieveDto, RetrieveResult } from "../../core/code-context/mod.ts";
import { uuidv7 } from "../../core/kernel/mod.ts";
import {
  createTopic,
  CreateTopicDto,
  getTopic,
  MAX_FILTER_TAGS,
  openProposal,
  OpenProposalDto,
  ProposalView,
  SEARCH_LIMIT,
  searchTopics,
  TagNameInput,
  TopicSlugSchema,
  TopicView,
} from "../../core/topics/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import type { ServerDeps } from "../deps.ts";

/**
 * The MCP tools: each one core use case, the same the HTTP routes call (never HTTP in HTTP), over
 * the credential's workspace. Input and output are TypeBox schemas, published as JSON Schema in
 * `tools/list`; input is strict (an unknown argument is an error the model can read and fix).
 */
export interface ToolContext {
  core: ServerDeps["core"];
  principal: Principal;
  workspace: Workspace;
}

export interface Tool<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  /** Which scopes the call needs (core/access/scopes.ts): a write tool asks for `work:write`. */
  operation: ScopedOperation;
  input: I;
  output: O;
  run(ctx: ToolContext, args: Static<I>): Promise<Static<O>>;
}

const strict = { additionalProperties: false } as const;
const tool = <I extends TObject, O extends TObject>(t: Tool<I, O>): Tool => t as unknown as Tool;

const SearchInput = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "\\S",
      description: "Search words (whole words; a topic must hold every one).",
    }),
    tags: Type.Optional(Type.Array(TagNameInput, { maxItems: MAX_FILTER_TAGS, description: "Only topics with any of these tags." })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT.max, description: `Default ${SEARCH_LIMIT.default}.` })),
  },
  strict,
);
const SearchOutput = Type.Object({
  topics: Type.Array(TopicView),
  total: Type.Integer(),
  has_more: Type.Boolean(),
  total_capped: Type.Boolean(),
});

const RetrieveInput = Type.Object(
  {
    question: RetrieveDto.properties.question,
    paths: RetrieveDto.properties.paths,
    token_budget: RetrieveDto.properties.budget_tokens,
    session: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "The session of an earlier call: topics it already delivered (at the same version) are left out. Omitted: a new session, returned.",
      }),
    ),
  },
  { ...strict, description: "At least one of `question` and `paths`." },
);

const ProposeInput = Type.Object(
  {
    title: CreateTopicDto.properties.title,
    body: Type.Required(CreateTopicDto.properties.body),
    tags: CreateTopicDto.properties.tags,
  },
  strict,
);

const SuggestInput = Type.Object(
  { slug: TopicSlugSchema, summary: OpenProposalDto.properties.summary, patch: OpenProposalDto.properties.patch },
  strict,
);

export const TOOLS: readonly Tool[] = [
  tool({
    name: "search_topics",
    title: "Search the knowledge base",
    description:
      "Full-text search of the workspace's topics (not drafts, never archived): each with its trust verdict (`trust`: reviewed, proposed or draft; `drifted`, `stale`) and an excerpt. Read a topic in full with get_topic.",
    operation: "read",
    input: SearchInput,
    output: SearchOutput,
    async run({ core, workspace }, args) {
      const { items, total, has_more, total_capped } = await searchTopics(core, workspace, {
        q: args.query,
        tags: args.tags?.join(","),
        limit: args.limit,
      });
      return { topics: items, total, has_more, total_capped };
    },
  }),
  tool({
    name: "get_topic",
    title: "Read a topic",
    description:
      "One topic in full by slug (an old slug answers with the topic it now names, `redirected_from`), with its trust verdict and governance (who approved it, when).",
    operation: "read",
    input: Type.Object({ slug: TopicSlugSchema }, strict),
    output: TopicView,
    run: ({ core, workspace }, args) => getTopic(core, workspace, args.slug, {}),
  }),
  tool({
    name: "retrieve_context",
    title: "Retrieve context for a task",
    description:
      "A ranked bundle of the topics relevant to a question and/or files, within a token budget (a token counted as 4 characters): topics anchored to the files first, then those holding the question's words, then one relation away. Reviewed knowledge outranks proposals at equal relevance; each topic carries its trust verdict and why it is here. Pass the returned `session` on the next call: topics already delivered are then left out (`skipped_delivered`).",
    operation: "read",
    input: RetrieveInput,
    output: RetrieveResult,
    run({ core, workspace }, args) {
      const dto: RetrieveDto = {};
      if (args.question !== undefined) dto.question = args.question;
      if (args.paths !== undefined) dto.paths = args.paths;
      if (args.token_budget !== undefined) dto.budget_tokens = args.token_budget;
      return retrieve(core, workspace, args.session ?? `mcp-${uuidv7()}`, dto);
    },
  }),
  tool({
    name: "match_files",
    title: "Topics about these files",
    description:
      "For each repo-relative path, the topics whose anchors (file globs) match it, with their trust verdict (reviewed first; drifted means the code changed since the topic was last vouched for): the first `limit_per_file` of them (default 20), and `total`, how many match in all.",
    operation: "read",
    input: Type.Object({ paths: MatchFilesDto.properties.paths, limit_per_file: MatchFilesDto.properties.limit_per_file }, strict),
    output: MatchFilesFullResult,
    run: ({ core, workspace }, args) =>
      matchFiles(core, workspace, {
        paths: args.paths,
        view: "full",
        ...(args.limit_per_file === undefined ? {} : { limit_per_file: args.limit_per_file }),
      }),
  }),
  tool({
    name: "propose_topic",
    title: "Propose a new topic",
    description:
      "Writes a new topic and puts it up for review at once (status `proposed`): it becomes trusted knowledge only when an owner or admin approves it. Needs scope work:write.",
    operation: "write",
    input: ProposeInput,
    output: TopicView,
    run: ({ core, principal, workspace }, args) =>
      createTopic(core, principal, workspace, {
        title: args.title,
        body: args.body,
        ...(args.tags ? { tags: args.tags } : {}),
        status: "proposed",
      }),
  }),
  tool({
    name: "suggest_edit",
    title: "Suggest an edit to a topic",
    description:
      "Opens a suggested edit on a topic: a JSON Merge Patch of its fields (title, body, tags, …) with a summary. The topic does not change until an owner or admin merges it. Needs scope work:write.",
    operation: "write",
    input: SuggestInput,
    output: ProposalView,
    run: ({ core, principal, workspace }, args) =>
      openProposal(core, principal, workspace, args.slug, { summary: args.summary, patch: args.patch }),
  }),
];

export const TOOL_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));
