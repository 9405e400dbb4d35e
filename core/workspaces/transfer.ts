import type { Identity } from "./model.ts";

/**
 * Workspaces' transfer kinds (ADR 067), in write order: people first (every member names one),
 * then workspaces, then what a workspace holds. One list the three adapters' transfer.ts import.
 */
export const WORKSPACE_TRANSFER_KINDS = {
  identities: { name: "workspaces.identities", tenant: false, key: ["id"] },
  workspaces: { name: "workspaces.workspaces", tenant: false, key: ["id"] },
  members: { name: "workspaces.members", tenant: true, key: ["id"] },
  areas: { name: "workspaces.areas", tenant: true, key: ["id"] },
  repos: { name: "workspaces.repos", tenant: true, key: ["id"] },
} as const;

/**
 * A person as moved: the stored identity plus the time of the last identity-provider event
 * applied to them (IdentityStore.update's `eventAt`), which a later stale event is judged by.
 */
export interface IdentityTransferDoc extends Identity {
  provider_event_at: string | null;
}
