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
import { iso } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";

/** Column lists and row mappers of workspaces, identities, members, areas and repos. */

/** `select` list of a workspace, optionally with every column renamed `<prefix><column>`. */
export function workspaceColumns(alias: string, prefix = ""): string {
  return ["id", "slug", "name", "plan", "settings", "created_at", "updated_at"]
    .map((c) => `${alias}.${c} as ${prefix}${c}`)
    .join(", ");
}

export function toWorkspace(r: Row, prefix = ""): Workspace {
  return {
    id: str(r[`${prefix}id`]),
    slug: str(r[`${prefix}slug`]),
    name: str(r[`${prefix}name`]),
    plan: r[`${prefix}plan`] as Plan,
    settings: r[`${prefix}settings`] as WorkspaceSettings,
    created_at: iso(r[`${prefix}created_at`]),
    updated_at: iso(r[`${prefix}updated_at`]),
  };
}

export const IDENTITY_COLUMNS = "id, email, name, created_at";

export function toIdentity(r: Row): Identity {
  return { id: str(r.id), email: str(r.email), name: strOrNull(r.name), created_at: iso(r.created_at) };
}

export function memberColumns(alias: string, prefix = ""): string {
  return ["id", "workspace_id", "identity_id", "role", "created_at", "updated_at"]
    .map((c) => `${alias}.${c} as ${prefix}${c}`)
    .join(", ");
}

export function toMember(r: Row, prefix = ""): Member {
  return {
    id: str(r[`${prefix}id`]),
    workspace_id: str(r[`${prefix}workspace_id`]),
    identity_id: str(r[`${prefix}identity_id`]),
    role: r[`${prefix}role`] as Role,
    created_at: iso(r[`${prefix}created_at`]),
    updated_at: iso(r[`${prefix}updated_at`]),
  };
}

/** Member columns plus the person's `email` and `name` (alias `i` for identities). */
export const MEMBER_VIEW_COLUMNS = `${memberColumns("m")}, i.email as email, i.name as name`;

export function toMemberView(r: Row): MemberView {
  return { ...toMember(r), email: str(r.email), name: strOrNull(r.name) };
}
export const AREA_COLUMNS = "id, workspace_id, name, description, created_at, updated_at";

export function toArea(r: Row): Area {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    name: str(r.name),
    description: strOrNull(r.description),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export const REPO_COLUMNS = "id, workspace_id, provider, full_name, default_branch, clone_url, created_at";

export function toRepo(r: Row): Repo {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    provider: r.provider as RepoProvider,
    full_name: str(r.full_name),
    default_branch: str(r.default_branch),
    clone_url: strOrNull(r.clone_url),
    created_at: iso(r.created_at),
  };
}
