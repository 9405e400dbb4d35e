import type { CoreDeps } from "../kernel/deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { IdentityLink } from "./model.ts";
import type { IdentityStores } from "./ports.ts";

type LinkDeps = CoreDeps<Pick<IdentityStores, "identityLinks" | "sessions" | "oauthGrants"> & Pick<WorkspaceStores, "identities">>;

/** What an OpenID Connect provider said about who signed in (from a checked ID token). */
export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  email_verified: boolean;
  /** The provider's display name, when it sent one. */
  name?: string | null;
}

/**
 * The person an OpenID Connect sign-in is: the one linked to `(issuer, subject)`; else, the first
 * time, the person with the provider's verified e-mail, who is linked then. A deactivated link, an
 * unverified e-mail or no such person is `forbidden` / `not_found`: sign-in makes no new people.
 */
export async function resolveOidcIdentity(deps: LinkDeps, claims: OidcClaims): Promise<Result<{ identity_id: string; linked: boolean }>> {
  const known = await deps.stores.identityLinks.get(claims.issuer, claims.subject);
  if (known) {
    return known.deactivated_at === null
      ? ok({ identity_id: known.identity_id, linked: false })
      : fail("forbidden", "Cannot sign in: this identity is deactivated");
  }
  if (!claims.email || !claims.email_verified) return fail("forbidden", "Cannot sign in: the provider did not verify an e-mail address");
  const person = await deps.stores.identities.getByEmail(claims.email);
  if (!person) return fail("not_found", "Cannot sign in: no member has this e-mail address");
  const link: IdentityLink = {
    issuer: claims.issuer,
    subject: claims.subject,
    identity_id: person.id,
    email: claims.email,
    created_at: deps.clock.now().toISOString(),
    deactivated_at: null,
  };
  if ((await deps.stores.identityLinks.insert(link)) === "ok") return ok({ identity_id: person.id, linked: true });
  // A concurrent first sign-in of the same account linked it; another account of this provider
  // linked to the person already is refused.
  const raced = await deps.stores.identityLinks.get(claims.issuer, claims.subject);
  if (raced && raced.deactivated_at === null) return ok({ identity_id: raced.identity_id, linked: false });
  return fail("forbidden", "Cannot sign in: this person is linked to another account of the provider");
}

/**
 * The provider deleted the account: the link signs in no more, and the person's sessions and OAuth
 * grants (all workspaces) end at once. Memberships stay. Unknown account: `not_found`.
 */
export async function deactivateIdentity(deps: LinkDeps, issuer: string, subject: string): Promise<Result<IdentityLink>> {
  const at = deps.clock.now().toISOString();
  const link = await deps.stores.identityLinks.deactivate(issuer, subject, at);
  if (!link) return fail("not_found", "Identity not found");
  await deps.stores.sessions.deleteAllOf(link.identity_id);
  await deps.stores.oauthGrants.revokeAllOfIdentity(link.identity_id, at);
  return ok(link);
}
