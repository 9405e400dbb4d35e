import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";

/**
 * What the workspaces module keeps: workspaces, people (identities), memberships, areas and linked
 * repos, as stored. What crosses the API is in dto.ts.
 */
/** Roles of a member. Owner and admin together are the "owner/admin" authority (access/policy.ts, ADR 018). */
export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export const PLANS = ["free", "team", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export const REPO_PROVIDERS = ["github", "gitlab", "bitbucket", "git"] as const;
export type RepoProvider = (typeof REPO_PROVIDERS)[number];

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const WorkspaceSettings = Type.Object({
  review_interval_days: Type.Integer({
    description: "Days after which a reviewed topic that was not re-vouched reads as stale (default 90).",
  }),
});
export type WorkspaceSettings = Static<typeof WorkspaceSettings>;

export const Workspace = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  plan: literalUnion(PLANS),
  settings: WorkspaceSettings,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = Static<typeof Workspace>;

/** A person. One identity may be a member of many workspaces. */
export const Identity = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  created_at: Timestamp,
});
export type Identity = Static<typeof Identity>;

const memberFields = {
  id: Type.String(),
  workspace_id: Type.String(),
  identity_id: Type.String(),
  role: literalUnion(ROLES),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const Member = Type.Object(memberFields);
export type Member = Static<typeof Member>;

export const Area = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Area = Static<typeof Area>;

/** A record of a linked code repository. */
export const Repo = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  provider: literalUnion(REPO_PROVIDERS),
  full_name: Type.String(),
  default_branch: Type.String(),
  clone_url: Nullable(Type.String()),
  created_at: Timestamp,
});
export type Repo = Static<typeof Repo>;
