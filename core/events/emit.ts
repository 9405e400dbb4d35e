import type { Principal } from "../access/mod.ts";
import type { CoreDeps } from "../deps.ts";
import { workspaceEvent } from "./event.ts";

/** Publishes a workspace event if the host wired an event bus. Never fails the use case. */
export async function emit(
  deps: CoreDeps<unknown>,
  workspaceId: string,
  type: string,
  actor: Principal | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (!deps.events) return;
  const event = workspaceEvent(workspaceId, type, actor?.identityId ?? null, deps.clock.now(), data);
  await deps.events.publish(event).catch(() => {});
}
