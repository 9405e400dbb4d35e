import { Value } from "@sinclair/typebox/value";
import { hasScopesFor, type ScopedOperation } from "../../core/access/mod.ts";
import { isAppError, schemaErrorDetails } from "../../core/kernel/mod.ts";
import { INVALID_PARAMS, type JsonRpcError, type JsonRpcResult, METHOD_NOT_FOUND, rpcError, rpcResult } from "./jsonrpc.ts";
import { negotiateRevision } from "./protocol.ts";
import { type Tool, TOOL_BY_NAME, type ToolContext, TOOLS } from "./tools.ts";

export interface McpRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

const INSTRUCTIONS =
  "The workspace's knowledge base: topics with a trust verdict (reviewed knowledge outranks proposals and drafts; drifted means the code it describes changed since it was vouched for). Before working on files, call retrieve_context with the task and the paths (pass its session back on later calls) or match_files; search_topics and get_topic to look things up. Write what you learned with propose_topic, and fixes with suggest_edit: people review both.";

/** A JSON value of a TypeBox schema: the symbols TypeBox keeps on it do not survive. */
const jsonSchema = (schema: object) => JSON.parse(JSON.stringify(schema));

function describeTool(t: Tool) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input),
    outputSchema: jsonSchema(t.output),
    annotations: {
      readOnlyHint: t.operation === "read",
      destructiveHint: false,
      idempotentHint: t.operation === "read",
      openWorldHint: false,
    },
  };
}

/** The scopes a request needs beyond reading: a call of a write tool needs `work:write`. */
export function operationOf(req: McpRequest): ScopedOperation {
  if (req.method !== "tools/call") return "read";
  const tool = typeof req.params.name === "string" ? TOOL_BY_NAME.get(req.params.name) : undefined;
  return tool?.operation ?? "read";
}

/**
 * Answers one request. Argument errors and refusals of the domain (not found, conflict, …) are
 * tool results with `isError`, which the model reads and can act on (MCP 2025-11-25, SEP-1303);
 * an unknown tool or malformed `tools/call` params are a -32602 protocol error. Anything else
 * thrown (a store down) leaves to the HTTP error envelope.
 */
export async function dispatch(ctx: ToolContext, req: McpRequest, serverVersion: string): Promise<JsonRpcResult | JsonRpcError> {
  switch (req.method) {
    case "initialize":
      return rpcResult(req.id, {
        protocolVersion: negotiateRevision(req.params.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "workspace-knowledge", title: "Workspace knowledge", version: serverVersion },
        instructions: INSTRUCTIONS,
      });
    case "ping":
      return rpcResult(req.id, {});
    case "tools/list":
      // The tools this credential may call: a read-only token is shown the read tools only
      // (calling a write tool anyway is still the step-up 403, decided before dispatch).
      return rpcResult(req.id, { tools: TOOLS.filter((t) => hasScopesFor(ctx.principal, t.operation)).map(describeTool) });
    case "tools/call":
      return callTool(ctx, req);
    default:
      return rpcError(req.id, METHOD_NOT_FOUND, `Method not found: ${req.method}`);
  }
}

async function callTool(ctx: ToolContext, req: McpRequest): Promise<JsonRpcResult | JsonRpcError> {
  const { name, arguments: args = {} } = req.params;
  if (typeof name !== "string") return rpcError(req.id, INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
  const tool = TOOL_BY_NAME.get(name);
  if (!tool) return rpcError(req.id, INVALID_PARAMS, `Unknown tool: ${name}`, { tools: TOOLS.map((t) => t.name) });
  if (!Value.Check(tool.input, args)) {
    const details = schemaErrorDetails(Value.Errors(tool.input, args), { limit: 20 });
    return toolError(req.id, { code: "VALIDATION_FAILED", message: `Invalid arguments for ${name}`, details });
  }
  try {
    const out = await tool.run(ctx, args as never);
    return rpcResult(req.id, { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out });
  } catch (error) {
    if (!isAppError(error) || error.code === "INTERNAL" || error.code === "STORE_UNAVAILABLE") throw error;
    return toolError(req.id, { code: error.code, message: error.message, details: error.details, ...error.meta });
  }
}

function toolError(id: string | number, error: Record<string, unknown>): JsonRpcResult {
  return rpcResult(id, { content: [{ type: "text", text: JSON.stringify({ error }) }], isError: true });
}
