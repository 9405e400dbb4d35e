import { Type } from "@sinclair/typebox";
import { endsStreamOf, type WorkspaceEvent } from "../../../core/events/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const enc = new TextEncoder();
/** Comment lines keep idle connections open through proxies that close silent ones. */
export const HEARTBEAT_MS = 15_000;

function frame(e: WorkspaceEvent): Uint8Array {
  return enc.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
}

/**
 * The workspace event stream as Server-Sent Events. Live only: events are fanned out to every
 * instance's subscribers (in-process, or through Redis with REDIS_URL), not stored, so a client
 * that reconnects receives what happens from then on. The stream ends when the caller's own key is
 * revoked, the caller leaves, or the workspace is deleted, and when the server shuts down.
 */
export function eventRoutes(deps: ServerDeps) {
  const bus = deps.core.events;
  return workspaceScope(deps, "events").get(
    "/events/stream",
    ({ principal, workspace, request }) => {
      let cleanup = () => {};
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const close = () => {
            cleanup();
            try {
              controller.close();
            } catch {
              // already closed by the client
            }
          };
          controller.enqueue(enc.encode(": connected\nretry: 3000\n\n"));
          const unsubscribe = bus
            ? bus.subscribe(workspace.id, (e) => {
              controller.enqueue(frame(e));
              if (endsStreamOf(principal, e)) close();
            })
            : () => {};
          const heartbeat = setInterval(() => controller.enqueue(enc.encode(": ping\n\n")), HEARTBEAT_MS);
          cleanup = () => {
            clearInterval(heartbeat);
            unsubscribe();
            deps.shutdown?.removeEventListener("abort", close);
          };
          request.signal.addEventListener("abort", close, { once: true });
          // On shutdown, end the stream so the server can finish; SSE clients reconnect elsewhere.
          deps.shutdown?.addEventListener("abort", close, { once: true });
        },
        cancel() {
          cleanup();
        },
      });
      return new Response(stream, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
      });
    },
    {
      params: Type.Object({ slug: SlugSchema }, strict),
      // Responses are declared in `detail` alone: the OpenAPI plugin writes a `response` schema as
      // JSON, and this 200 is `text/event-stream`.
      detail: {
        ...authenticated,
        tags: ["events"],
        summary: "Workspace event stream (Server-Sent Events)",
        description:
          "`text/event-stream`. Each event: `id` (UUIDv7), `event` (its type, e.g. `member.added`, `member.role_changed`, `member.removed`, `api_key.created`, `api_key.revoked`, `area.created`, `area.updated`, `area.deleted`, `repo.linked`, `repo.removed`, `workspace.updated`, `workspace.plan_changed`, `billing.payment_failed`, `workspace.deleted`, `oauth.grant.created`, `oauth.grant.revoked`), `data` (the event as JSON: `id`, `workspace_id`, `type`, `actor_id`, `at`, `data`). Live only: events published while the client is connected, on any server instance. A comment line every 15 s keeps the connection open. The stream ends when the caller's key (or OAuth grant) is revoked, the caller leaves the workspace, or the workspace is deleted.",
        responses: {
          200: {
            description: "An endless event stream: `id`, `event` and `data` lines per event, comment lines (`: ping`) in between.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...Object.fromEntries(
            Object.entries(errors(401, 404)).map((
              [status, schema],
            ) => [status, { description: schema.description ?? "Error", content: { "application/json": { schema } } }]),
          ),
        },
      },
    },
  );
}
