import type { CoreDeps } from "../kernel/deps.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { CapacityGate } from "../kernel/capacity.ts";
import type { ApiKeyRecord } from "../access/mod.ts";
import type { Area, Identity, Member, Plan, Repo, Role, Workspace } from "./model.ts";
import type { MemberView, WorkspaceCounts } from "./dto.ts";

/**
 * Store ports of the workspaces module. Absence is `null`, `false` or `[]`, never a throw; an
 * expected refusal (a taken slug, the last owner) is a returned string, so every adapter reports
 * it the same way. Each method is atomic on its own: adapters without multi-document
 * transactions must still keep the invariants each method states.
 */
export interface Listed<T> {
  items: T[];
  total: number;
}

export interface BootstrapBundle {
  workspace: Workspace;
  /** `isNew`: the identity is inserted; otherwise it exists and only gains the membership. */
  owner: { identity: Identity; isNew: boolean };
  member: Member;
  apiKey: ApiKeyRecord;
}

export interface WorkspaceFilter {
  q?: string;
  plan?: Plan;
}

export interface WorkspaceStore {
  /** Creates the workspace, a new owner identity if asked, the owner membership and the first key, all or nothing. */
  bootstrap(bundle: BootstrapBundle): Promise<"ok" | "slug_taken" | "email_taken">;
  getBySlug(slug: string): Promise<Workspace | null>;
  /** By id (an OAuth token names its workspace by id); null when none. */
  getById(workspaceId: string): Promise<Workspace | null>;
  /**
   * Every workspace, newest first (the platform operator's list): `q` matches slug or name
   * (case-insensitive substring), `plan` filters.
   */
  list(filter: WorkspaceFilter, page: OffsetPage): Promise<Listed<Workspace>>;
  /** Writes name, plan, settings and updated_at of an existing workspace. */
  update(workspace: Workspace): Promise<void>;
  /** Deletes the workspace and every row of its tenant data. */
  delete(workspaceId: string): Promise<boolean>;
  counts(workspaceId: string): Promise<WorkspaceCounts>;
}

export interface IdentityStore {
  getById(identityId: string): Promise<Identity | null>;
  getByEmail(email: string): Promise<Identity | null>;
  /**
   * Sets the person's e-mail and/or name (the identity provider changed them). Another person's
   * e-mail is refused ("email_taken", nothing changed, also under concurrent calls: the e-mail is
   * a unique key); null when unknown. With `eventAt` (the provider event's time, ISO 8601 UTC) the
   * change is refused as "stale" (nothing changed) when an event later than it was applied to the
   * person; otherwise `eventAt` is kept with the person as the last applied (in the same write).
   */
  update(
    identityId: string,
    changes: { email?: string; name?: string | null },
    opts?: { eventAt?: string },
  ): Promise<Identity | "email_taken" | "stale" | null>;
  /** The identity's memberships, oldest first, at most `limit`. */
  memberships(identityId: string, limit: number): Promise<Array<{ workspace: Workspace; member: Member }>>;
}

export interface MemberStore {
  list(workspaceId: string, page: OffsetPage): Promise<Listed<MemberView>>;
  get(workspaceId: string, memberId: string): Promise<MemberView | null>;
  /** The identity's membership of this workspace, by the (workspace, identity) unique key; null when none. */
  findByIdentity(workspaceId: string, identityId: string): Promise<Member | null>;
  /**
   * Links the identity with this e-mail to the workspace, inserting `identity` when no identity
   * has the e-mail yet (an existing one is reused and keeps its name).
   */
  add(identity: Identity, member: Omit<Member, "identity_id">): Promise<MemberView | "already_member">;
  /** Refuses ("last_owner") to demote the workspace's only owner, also under concurrent calls. */
  setRole(workspaceId: string, memberId: string, role: Role, at: string): Promise<MemberView | "last_owner" | null>;
  /** Removes the membership and the API keys it owns. Refuses to remove the only owner. */
  remove(workspaceId: string, memberId: string): Promise<"ok" | "last_owner" | "not_found">;
}

export interface AreaStore {
  list(workspaceId: string, page: OffsetPage): Promise<Listed<Area>>;
  get(workspaceId: string, areaId: string): Promise<Area | null>;
  /** Area names are unique within a workspace. */
  insert(area: Area): Promise<"ok" | "name_taken">;
  update(area: Area): Promise<"ok" | "name_taken" | "not_found">;
  delete(workspaceId: string, areaId: string): Promise<boolean>;
}

export interface RepoStore {
  list(workspaceId: string, page: OffsetPage): Promise<Listed<Repo>>;
  get(workspaceId: string, repoId: string): Promise<Repo | null>;
  /** (provider, full_name) is unique within a workspace. */
  insert(repo: Repo): Promise<"ok" | "taken">;
  /** Deletes the repo and its file index. */
  delete(workspaceId: string, repoId: string): Promise<boolean>;
  /**
   * Repos of any workspace and provider with this `full_name`, oldest first, at most `limit`: the
   * code-host webhook names a repository, not a workspace. The one repo lookup that does not start
   * with `workspace_id` (an index of its own, like `api_keys.key_hash`).
   */
  findByFullName(fullName: string, limit: number): Promise<Repo[]>;
}

/**
 * What follows linking a repo (`codeContextHooks` of core/code-context/mod.ts: its first file
 * index). A port, so that workspaces need not import code-context, which reads repos. A hook is another module's code and may read any bundle: it is given the host's whole deps (typed `CoreDeps<unknown>` here; the hook names what it reads, ADR 066).
 */
export type RepoLinkedHook = (deps: CoreDeps<unknown>, repo: Repo) => Promise<void>;

/**
 * What follows adding a member (`mailHooks` of core/mail/mod.ts: the "member added" mail). The
 * actor is the identity who added them, or null for a faceless key. A port, so workspaces need
 * not import mail; it must not fail the use case (the hook swallows its own failures).
 */
export type MemberAddedHook = (deps: CoreDeps<unknown>, ws: Workspace, actorIdentityId: string | null, member: MemberView) => Promise<void>;

/** Workspaces' stores, one bundle per adapter (adapters/<adapter>/workspaces/). */
export interface WorkspaceStores {
  workspaces: WorkspaceStore;
  identities: IdentityStore;
  members: MemberStore;
  areas: AreaStore;
  repos: RepoStore;
}

/**
 * What a repo link asks of the code host (code-context's `CodeHost`): whether it will ever read
 * the repo. Declared here so workspaces need not import code-context.
 */
export interface RepoSourceCheck {
  /** Why the code host will never read this repo (outside its roots, a private address); null: it may. */
  refusal?(repo: Pick<Repo, "provider" | "full_name" | "clone_url">): Promise<string | null>;
}

/** Workspaces' own part of the host's deps: the gate, providers it asks, and the hooks that follow its use cases. */
export interface WorkspaceProviders {
  /** The gate every create of a limited kind passes (billing's `planLimitsGate`); without it nothing is counted or refused. */
  capacity?: CapacityGate;
  /** The payment provider (billing's `BillingProvider`); only whether there is one is read: with one, owners do not switch plans. */
  billingProvider?: object;
  /** The code host (adapters/git/), asked whether it will read a repo before it is linked. */
  codeHost?: RepoSourceCheck;
  /** What follows linking a repo (`codeContextHooks`: its first file index); without it, nothing. */
  onRepoLinked?: RepoLinkedHook;
  /** What follows adding a member (`mailHooks`: the "member added" mail); without it, nothing. */
  onMemberAdded?: MemberAddedHook;
}

/** What Workspaces' use cases are given: its own stores and those of other modules it reads (ADR 019), and its providers. */
export type WorkspaceDeps = CoreDeps<WorkspaceStores> & WorkspaceProviders;
