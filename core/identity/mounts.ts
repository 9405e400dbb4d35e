import type { CoreDeps } from "../kernel/deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import { fail, ok, type Result } from "./errors.ts";

/**
 * An issuer of the authorization server (ADR 029): the root, whose issuer is the service's origin,
 * or a workspace's mount, whose issuer is `{api}/workspaces/{slug}` and which pins that workspace.
 * One client registry serves both.
 */
export interface OAuthMount {
  issuer: string;
  /** Where its endpoints live: the API's root at the root mount, the issuer at a workspace's. */
  base: string;
  /** The workspace a workspace mount pins; null at the root. */
  slug: string | null;
  /** The service's public origin. */
  origin: string;
}

/**
 * The mount a request reached, given the service's origin and its API root (`{origin}/api/v1`):
 * the root without a slug, else the workspace's (an unknown workspace is `not_found`).
 */
export async function oauthMount(
  deps: CoreDeps<Pick<WorkspaceStores, "workspaces">>,
  at: { origin: string; api: string },
  slug: string | undefined,
): Promise<Result<OAuthMount>> {
  if (slug === undefined) return ok({ issuer: at.origin, base: at.api, slug: null, origin: at.origin });
  if (!(await deps.stores.workspaces.getBySlug(slug))) return fail("not_found", "Workspace not found");
  const issuer = `${at.api}/workspaces/${slug}`;
  return ok({ issuer, base: issuer, slug, origin: at.origin });
}
