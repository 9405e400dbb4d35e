import type { OAuthClient, OAuthGrant, OAuthToken } from "../../../core/identity/model.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { stamp, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const LATER = "2099-01-01T00:00:00.000Z";
const hash = () => crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "");

/** What was seeded into a workspace, for `verify`. */
interface Seeded {
  clients: string[];
  grants: string[];
  codes: { spent: string; fresh: string };
  tokens: { access: string; revoked: string; rotated: string; successor: string };
  session: string;
  links: { issuer: string; subject: string }[];
}

const seeded = new Map<string, Seeded>();

function client(over: Partial<OAuthClient>): OAuthClient {
  return {
    client_id: unique("client"),
    client_name: null,
    redirect_uris: [],
    client_uri: null,
    logo_uri: null,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
    scope: null,
    secret_hash: null,
    created_at: stamp(),
    ...over,
  };
}

function token(grant: OAuthGrant, kind: OAuthToken["kind"]): OAuthToken {
  return {
    token_hash: hash(),
    kind,
    workspace_id: grant.workspace_id,
    grant_id: grant.id,
    created_at: stamp(),
    expires_at: LATER,
    revoked_at: null,
  };
}

/**
 * Identity's kinds (core/identity/transfer.ts): a confidential client (its secret hashed) and a
 * public one, grants (one used, one revoked), a spent-and-reused code and a fresh one, tokens
 * (access, revoked access, a rotated refresh token and its successor), a session, links (one
 * deactivated). A copy must still answer each secret the same way.
 */
export const identitySeeder: TransferSeeder = {
  module: "identity",
  async seed(s: Stores, ws: BootstrapBundle) {
    const person = ws.owner.identity.id;
    const wsId = ws.workspace.id;
    const confidential = client({
      client_name: "Café ☕ client — ünïcode",
      redirect_uris: ["https://app.example.com/cb", "http://127.0.0.1:8123/cb"],
      client_uri: "https://app.example.com",
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      scope: "work:read topics:write",
      secret_hash: hash(),
    });
    const pub = client({});
    for (const c of [confidential, pub]) if ((await s.oauthClients.insert(c)) !== "ok") throw new Error("seed: client taken");

    const grant = (over: Partial<OAuthGrant>): OAuthGrant => ({
      id: uuidv7(),
      workspace_id: wsId,
      identity_id: person,
      client_id: confidential.client_id,
      scopes: ["work:read"],
      issuer: "https://wks.example.com",
      created_at: stamp(),
      last_used_at: null,
      revoked_at: null,
      ...over,
    });
    const live = grant({ scopes: ["work:read", "topics:write"] as OAuthGrant["scopes"] });
    const revoked = grant({ client_id: pub.client_id, issuer: `https://wks.example.com/w/${ws.workspace.slug}` });
    await s.oauthGrants.insert(live);
    await s.oauthGrants.insert(revoked);
    await s.oauthGrants.touch(wsId, live.id, stamp());
    await s.oauthGrants.revoke(wsId, revoked.id, stamp());

    const code = (grantId: string) => ({
      code_hash: hash(),
      workspace_id: wsId,
      grant_id: grantId,
      client_id: confidential.client_id,
      identity_id: person,
      issuer: "https://wks.example.com",
      redirect_uri: "https://app.example.com/cb",
      scopes: ["work:read"] as OAuthGrant["scopes"],
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      created_at: stamp(),
      expires_at: LATER,
    });
    const spent = code(live.id), fresh = code(uuidv7());
    await s.oauthCodes.insert(spent);
    await s.oauthCodes.insert(fresh);
    await s.oauthCodes.spend(spent.code_hash, stamp());
    await s.oauthCodes.spend(spent.code_hash, stamp());

    const access = token(live, "access"), revokedAccess = token(live, "access"), refresh = token(live, "refresh");
    await s.oauthTokens.insert([access, refresh]);
    await s.oauthTokens.insert([revokedAccess]);
    await s.oauthTokens.revokeAccess(revokedAccess.token_hash, stamp());
    const successor = token(live, "refresh");
    if ((await s.oauthTokens.rotateRefresh(refresh.token_hash, [successor], stamp())) !== "rotated") throw new Error("seed: not rotated");

    const session = hash();
    await s.sessions.insert({ id: session, identity_id: person, created_at: stamp(), expires_at: LATER });

    // A person has one link per issuer: two issuers, the second link deactivated.
    const links = [
      { issuer: "https://accounts.example.com", subject: unique("sub-ü") },
      { issuer: "https://login.example.org", subject: unique("sub") },
    ];
    if (
      (await s.identityLinks.insert({
        ...links[0]!,
        identity_id: person,
        email: "pat@example.com",
        created_at: stamp(),
        deactivated_at: null,
      })) !== "ok"
    ) {
      throw new Error("seed: link taken");
    }
    await s.identityLinks.insert({
      ...links[1]!,
      identity_id: person,
      email: "pat+ü@example.org",
      created_at: stamp(),
      deactivated_at: null,
    });
    await s.identityLinks.deactivate(links[1]!.issuer, links[1]!.subject, stamp());

    seeded.set(wsId, {
      clients: [confidential.client_id, pub.client_id],
      grants: [live.id, revoked.id],
      codes: { spent: spent.code_hash, fresh: fresh.code_hash },
      tokens: {
        access: access.token_hash,
        revoked: revokedAccess.token_hash,
        rotated: refresh.token_hash,
        successor: successor.token_hash,
      },
      session,
      links,
    });
  },

  async verify(source, target, ws, expect) {
    const x = seeded.get(ws.workspace.id)!;
    const wsId = ws.workspace.id;
    // `getMany` promises no order.
    const clients = async (s: Stores) => (await s.oauthClients.getMany(x.clients)).sort((a, b) => (a.client_id < b.client_id ? -1 : 1));
    expect(await clients(target)).toEqual(await clients(source));
    expect((await clients(target)).length).toBe(2);
    for (const id of x.grants) expect(await target.oauthGrants.get(wsId, id)).toEqual(await source.oauthGrants.get(wsId, id));
    const page = { limit: 10 };
    expect(await target.oauthGrants.list(wsId, null, page)).toEqual(await source.oauthGrants.list(wsId, null, page));
    expect((await target.oauthGrants.list(wsId, null, page)).map((g) => g.id)).toEqual([x.grants[0]]);
    // The copied codes: the spent one stays spent (a redemption is a reuse), the fresh one redeems once.
    expect(await target.oauthCodes.get(x.codes.spent)).toEqual(await source.oauthCodes.get(x.codes.spent));
    expect((await target.oauthCodes.spend(x.codes.spent, stamp()))?.first).toBe(false);
    expect((await target.oauthCodes.spend(x.codes.fresh, stamp()))?.first).toBe(true);
    // The copied tokens still resolve by their hash, with their grant; a rotated one is a replay.
    expect(await target.oauthTokens.findAccess(x.tokens.access)).toEqual(await source.oauthTokens.findAccess(x.tokens.access));
    expect((await target.oauthTokens.findAccess(x.tokens.access))?.grant.last_used_at).not.toBeNull();
    expect((await target.oauthTokens.findAccess(x.tokens.revoked))?.token.revoked_at).not.toBeNull();
    expect(await target.oauthTokens.findRefresh(x.tokens.rotated)).toEqual(await source.oauthTokens.findRefresh(x.tokens.rotated));
    expect(await target.oauthTokens.rotateRefresh(x.tokens.rotated, [], stamp())).toBe("replayed");
    expect((await target.oauthTokens.findRefresh(x.tokens.successor))?.token.rotated_at).toBeNull();
    // The session (its id is the hash of the cookie's token) still validates.
    expect(await target.sessions.get(x.session)).toEqual(await source.sessions.get(x.session));
    expect(await target.sessions.get(x.session)).not.toBeNull();
    for (const l of x.links) {
      expect(await target.identityLinks.get(l.issuer, l.subject)).toEqual(await source.identityLinks.get(l.issuer, l.subject));
    }
    expect((await target.identityLinks.get(x.links[1]!.issuer, x.links[1]!.subject))?.deactivated_at).not.toBeNull();
    // Still unique on the copy: the person's link at that issuer is taken.
    const again = {
      ...x.links[0]!,
      subject: unique("sub"),
      identity_id: ws.owner.identity.id,
      email: "x@example.com",
      created_at: stamp(),
      deactivated_at: null,
    };
    expect(await target.identityLinks.insert(again)).toBe("taken");
  },
};
