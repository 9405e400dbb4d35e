import type { Role } from "../workspaces/mod.ts";
import type { Scope } from "./scopes.ts";

/**
 * Who is acting. Every credential (API key today; OAuth token and dashboard session later)
 * resolves to this one shape, so policies never look at how the caller authenticated except
 * through `via`.
 */
export interface Principal {
  /** The one workspace this credential is scoped to. */
  workspaceId: string;
  /** `identity`: a person; `service`: a faceless key that belongs to the workspace. */
  kind: "identity" | "service";
  identityId: string | null;
  memberId: string | null;
  /** The member's role; null for a faceless principal. */
  role: Role | null;
  via: "api_key" | "oauth" | "session";
  /** The credential's id (API key id), for audit and revocation. */
  credentialId: string;
  /**
   * The scopes the credential holds (scopes.ts): every one for an API key (and a session), which
   * act with the member's full role; those its grant named for an OAuth token. Scopes narrow what
   * a role allows, never widen it.
   */
  scopes: readonly Scope[];
  /** Over OAuth, the client the token was issued to; absent otherwise. */
  clientId?: string;
}
