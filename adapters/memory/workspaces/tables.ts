import type { Area, Identity, Member, Repo, Workspace } from "../../../core/workspaces/model.ts";

/** The in-memory tables of workspaces (the adapter's composition shares one object of every module's tables). */
export class WorkspaceTables {
  workspaces = new Map<string, Workspace>();
  workspaceIdBySlug = new Map<string, string>();
  identities = new Map<string, Identity>();
  identityIdByEmail = new Map<string, string>();
  /** identity id → the time of the last identity-provider event applied to it (IdentityStore.update). */
  identityEventAt = new Map<string, string>();
  members = new Map<string, Member>();
  areas = new Map<string, Area>();
  repos = new Map<string, Repo>();
}
