import type { Clock } from "../kernel/clock.ts";
import type { EventBus } from "./ports.ts";
import { workspaceEvent } from "./event.ts";

/** Publishes a workspace event if the host wired an event bus. Never fails the use case. */
export async function emit(
  deps: { clock: Clock; events?: EventBus },
  workspaceId: string,
  type: string,
  /** the acting principal (access's `Principal`), read for its identity */
  actor: { identityId: string | null } | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (!deps.events) return;
  const event = workspaceEvent(workspaceId, type, actor?.identityId ?? null, deps.clock.now(), data);
  await deps.events.publish(event).catch(() => {});
}
