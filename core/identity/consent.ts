import type { Authenticated } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import { approveAuthorization, type AuthorizationParams, authorizationResponseUri, checkAuthorizationRequest } from "./authorize.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { Session } from "./model.ts";
import type { OAuthMount } from "./mounts.ts";
import { checkConsentDecider } from "./policy.ts";
import type { IdentityStores } from "./ports.ts";
import { sessionPrincipal } from "./principal.ts";

type ConsentDeps = CoreDeps<
  Pick<IdentityStores, "oauthClients" | "oauthCodes" | "sessions"> & Pick<WorkspaceStores, "workspaces" | "members" | "identities">
>;

type Mount = Pick<OAuthMount, "issuer" | "slug" | "origin">;

/**
 * Who decides a consent: a person's credential the server authenticated (an API key, or an OAuth
 * token, which the decider rule refuses), or a signed-in dashboard session (ADR 044), whose
 * credentials (cookie, CSRF token) the server checked.
 */
export type ConsentDecider = { auth: Authenticated } | { session: Session };

/** A decision on an authorization request, as the decider sent it. */
export interface ConsentDecision {
  mount: Mount;
  /** Null: nobody signed it (the consent form's deny, which anyone holding the page may send). */
  decider: ConsentDecider | null;
  /** The workspace the decider names (a slug); by session at the root mount, required. */
  workspace?: string | null;
  /** The request decided, as sent: checked again here, since the page's copy is the sender's. */
  params: AuthorizationParams;
  decision: "approve" | "deny";
}

/**
 * The deciding person: a session's, in the mount's workspace or the one named (no such workspace,
 * or not theirs: `not_found`), or the credential's; then the decider rule (policy.ts).
 */
export async function consentDecider(
  deps: ConsentDeps,
  mount: Mount,
  decider: ConsentDecider,
  workspace?: string | null,
): Promise<Result<Authenticated>> {
  if ("auth" in decider) return checkConsentDecider(decider.auth, mount.slug, workspace);
  const slug = mount.slug ?? workspace;
  if (!slug) {
    return fail("invalid_request", "Invalid request body: name the workspace to authorize the client in", [
      { path: "body/workspace", message: "required when deciding by session at the root mount" },
    ]);
  }
  const found = await deps.stores.workspaces.getBySlug(slug);
  const auth = found ? await sessionPrincipal(deps, decider.session, found) : null;
  if (!auth) return fail("not_found", "Workspace not found");
  return checkConsentDecider(auth, mount.slug, workspace);
}

/**
 * The consent decision: the decider (consentDecider), the request checked again (a refusal is
 * `invalid_request`, nothing issued), then where the user goes: the redirect URI with a code for
 * the decider in their workspace, or with `error=access_denied` when denied.
 */
export async function decideConsent(deps: ConsentDeps, d: ConsentDecision): Promise<Result<string>> {
  let auth: Authenticated | null = null;
  if (d.decider) {
    const decider = await consentDecider(deps, d.mount, d.decider, d.workspace);
    if (!decider.ok) return decider;
    auth = decider.value;
  }
  const check = await checkAuthorizationRequest(deps, d.params, d.mount.origin);
  if (!check.ok) {
    const r = check.refusal;
    return fail("invalid_request", r.description, [{ path: "body", message: r.kind === "fatal" ? "invalid" : r.error }]);
  }
  const req = check.request;
  const answer = (a: { code: string } | { error: string; error_description: string }) =>
    ok(authorizationResponseUri(req.redirect_uri, a, req.state, d.mount.issuer));
  if (d.decision === "deny" || !auth) return answer({ error: "access_denied", error_description: "The user denied the request" });
  const approved = await approveAuthorization(deps, auth.principal, req, d.mount.issuer);
  return approved.ok ? answer({ code: approved.value.code }) : approved;
}

/** The signed-in person as the consent page shows them. */
export interface ConsentViewer {
  email: string;
  /** At the root mount, the workspaces they may choose; none at a workspace's. */
  workspaces: Array<{ slug: string; name: string }>;
}

/**
 * Who the consent page is for, signed in: the person, with (at the root mount) the workspaces they
 * may authorize the client in; null when none fits the mount (no membership there, or none at all).
 */
export async function consentViewer(deps: ConsentDeps, mount: Pick<Mount, "slug">, session: Session): Promise<ConsentViewer | null> {
  const identity = await deps.stores.identities.getById(session.identity_id);
  if (!identity) return null;
  if (mount.slug !== null) {
    const ws = await deps.stores.workspaces.getBySlug(mount.slug);
    return ws && (await sessionPrincipal(deps, session, ws)) ? { email: identity.email, workspaces: [] } : null;
  }
  const memberships = await deps.stores.identities.memberships(identity.id, 100);
  if (memberships.length === 0) return null;
  return { email: identity.email, workspaces: memberships.map((m) => ({ slug: m.workspace.slug, name: m.workspace.name })) };
}
