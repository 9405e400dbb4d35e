import type {
  Area,
  Identity,
  Member,
  Plan,
  Repo,
  RepoProvider,
  Role,
  Workspace,
  WorkspaceSettings,
} from "../../../core/workspaces/model.ts";
import type { MemberView } from "../../../core/workspaces/dto.ts";

/**
 * Documents of the MongoDB adapter and their mapping to and from the models.
 *
 * `_id` is the model's id (a UUIDv7 string); timestamps stay the models' ISO 8601 UTC strings,
 * which sort like the instants they name (core writes them with `toISOString()`), so lists sort
 * on them directly. Fields the models do not have are the adapter's bookkeeping for keeping the
 * ports' invariants without transactions (docs/decisions/005-mongo-without-transactions.md).
 */
export interface WorkspaceDoc {
  _id: string;
  slug: string;
  name: string;
  plan: Plan;
  settings: WorkspaceSettings;
  created_at: string;
  updated_at: string;
  /**
   * Set (the adapter's clock, ISO) while a bootstrap is in flight. The workspace exists once its
   * first roster version exists (roster.ts); this marker only spares readers that lookup, and is
   * unset right after the bootstrap commits.
   */
  pending_since?: string;
  /** The identity a pending bootstrap inserted, so a purge of the bootstrap can take it away too. */
  pending_identity?: string;
}

/**
 * One version of a workspace's roster: who its owners are and which members are being removed.
 * Insert-only: version v+1 is committed by inserting it, and the unique (workspace_id, v) index
 * lets exactly one of concurrent writers who read version v commit (see roster.ts).
 */
export interface RosterDoc {
  /** `<workspace_id>:<v>` */
  _id: string;
  workspace_id: string;
  v: number;
  /** Member ids of the owners: the source of truth for "is owner". Never emptied. */
  owner_ids: string[];
  /** Members whose removal is committed and whose documents may not be deleted yet. */
  removing: string[];
  /** The version that records the purge of an abandoned bootstrap (the workspace never existed). */
  purged?: true;
  at: string;
}

export interface IdentityDoc {
  _id: string;
  email: string;
  name: string | null;
  created_at: string;
  /**
   * Set when a bootstrap inserted this identity, unset once the bootstrap is complete or another
   * workspace claims the identity. While that workspace is pending, the identity is not visible.
   */
  pending_ws?: string;
  /** The time of the last identity-provider event applied (IdentityStore.update's `eventAt`). */
  provider_event_at?: string | null;
}

export interface MemberDoc {
  _id: string;
  workspace_id: string;
  identity_id: string;
  /**
   * The member's role when not listed in the roster's `owner_ids`. `owner` on an unlisted member
   * means an addition as owner or a promotion not yet committed to the roster: readers count it
   * as an owner (a crash never loses an owner), and the next last-owner check adopts it.
   */
  role: Role;
  created_at: string;
  updated_at: string;
}
export interface AreaDoc {
  _id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface RepoDoc {
  _id: string;
  workspace_id: string;
  provider: RepoProvider;
  full_name: string;
  default_branch: string;
  clone_url: string | null;
  created_at: string;
}
// ---- documents → models ----

export function toWorkspace(d: WorkspaceDoc): Workspace {
  return {
    id: d._id,
    slug: d.slug,
    name: d.name,
    plan: d.plan,
    settings: { ...d.settings },
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toIdentity(d: IdentityDoc): Identity {
  return { id: d._id, email: d.email, name: d.name ?? null, created_at: d.created_at };
}

/** The role readers see: listed in the roster's `owner_ids` means owner, whatever the member document says. */
export function effectiveRole(d: MemberDoc, ownerIds: readonly string[] | undefined): Role {
  return ownerIds?.includes(d._id) ? "owner" : d.role;
}

export function toMember(d: MemberDoc, ownerIds: readonly string[] | undefined): Member {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    identity_id: d.identity_id,
    role: effectiveRole(d, ownerIds),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toMemberView(d: MemberDoc, ownerIds: readonly string[] | undefined, person: IdentityDoc): MemberView {
  return { ...toMember(d, ownerIds), email: person.email, name: person.name ?? null };
}

export function toArea(d: AreaDoc): Area {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    name: d.name,
    description: d.description ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toRepo(d: RepoDoc): Repo {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    provider: d.provider,
    full_name: d.full_name,
    default_branch: d.default_branch,
    clone_url: d.clone_url ?? null,
    created_at: d.created_at,
  };
}

// ---- models → documents ----

export function identityDoc(i: Identity): IdentityDoc {
  return { _id: i.id, email: i.email, name: i.name, created_at: i.created_at };
}

export function memberDoc(m: Member): MemberDoc {
  return {
    _id: m.id,
    workspace_id: m.workspace_id,
    identity_id: m.identity_id,
    role: m.role,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export function areaDoc(a: Area): AreaDoc {
  return {
    _id: a.id,
    workspace_id: a.workspace_id,
    name: a.name,
    description: a.description,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function repoDoc(r: Repo): RepoDoc {
  return {
    _id: r.id,
    workspace_id: r.workspace_id,
    provider: r.provider,
    full_name: r.full_name,
    default_branch: r.default_branch,
    clone_url: r.clone_url,
    created_at: r.created_at,
  };
}
