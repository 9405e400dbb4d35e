import type { Collection, Db } from "mongodb";
import type { AreaDoc, IdentityDoc, MemberDoc, RepoDoc, RosterDoc, WorkspaceDoc } from "./documents.ts";

/** Workspaces' collections of one database (their indexes: indexes.ts). */
export interface WorkspaceCollections {
  workspaces: Collection<WorkspaceDoc>;
  identities: Collection<IdentityDoc>;
  members: Collection<MemberDoc>;
  areas: Collection<AreaDoc>;
  repos: Collection<RepoDoc>;
  rosters: Collection<RosterDoc>;
}

export const WORKSPACE_COLLECTION_NAMES = {
  workspaces: "workspaces",
  identities: "identities",
  members: "members",
  areas: "areas",
  repos: "repos",
  rosters: "rosters",
} as const;

export function workspaceCollections(db: Db): WorkspaceCollections {
  return {
    workspaces: db.collection<WorkspaceDoc>(WORKSPACE_COLLECTION_NAMES.workspaces),
    identities: db.collection<IdentityDoc>(WORKSPACE_COLLECTION_NAMES.identities),
    members: db.collection<MemberDoc>(WORKSPACE_COLLECTION_NAMES.members),
    areas: db.collection<AreaDoc>(WORKSPACE_COLLECTION_NAMES.areas),
    repos: db.collection<RepoDoc>(WORKSPACE_COLLECTION_NAMES.repos),
    rosters: db.collection<RosterDoc>(WORKSPACE_COLLECTION_NAMES.rosters),
  };
}
