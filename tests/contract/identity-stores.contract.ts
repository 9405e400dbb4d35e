import type { TestApi } from "./kit/test-api.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import type { CoreDeps } from "../../core/kernel/deps.ts";
import {
  authenticateAccessToken,
  authenticateClient,
  createSession,
  deactivateIdentity,
  hashSecret,
  type IdentityStores,
  invalidateSessionsOf,
  issueCode,
  listGrants,
  newAccessToken,
  newAuthorizationCode,
  newRefreshToken,
  type OAuthClient,
  type OAuthGrant,
  type OAuthToken,
  redeemCode,
  refreshTokens,
  registerClient,
  resolveOidcIdentity,
  revokeGrant,
  revokeToken,
  s256Challenge,
  type TokenSet,
  validateSession,
} from "../../core/identity/mod.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import type { Principal } from "../../core/access/principal.ts";
import type { Stores } from "../../core/stores.ts";
import type { BootstrapBundle } from "../../core/workspaces/ports.ts";
import { bootstrapped, identity, newMember, stamp } from "./fixtures.ts";

/**
 * The contract of the identity stores (core/identity/ports.ts), and of identity's use cases over
 * them: one redemption of a code and one rotation of a refresh token win, whatever runs
 * concurrently; revoking a grant ends its tokens at once; expiry follows an injected clock; a grant
 * of one workspace is never listed in another. Every adapter runs it; memory is the reference.
 */
export function runIdentityStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: identity stores (OAuth clients, codes, grants, tokens; sessions; OIDC links)`, () => {
    let s: Stores;
    let secretBox: ComposedDeps["secretBox"];
    beforeAll(async () => {
      s = await open();
      secretBox = await createSecretBox("contract-secret-contract-secret-0");
    });
    afterAll(async () => {
      await s?.close();
    });

    const REDIRECT = "https://app.example.com/callback";
    const ISSUER = "https://wks.example.com";
    const VERIFIER = "v".repeat(43) + "-verifier-of-a-test-client";
    const deps = (start = Date.now()) => {
      const clock = fixedClock(new Date(start));
      return { d: { stores: s, clock, secretBox }, clock };
    };

    const clientFixture = (over: Partial<OAuthClient> = {}): OAuthClient => ({
      client_id: `wkc_${uuidv7().replace(/-/g, "")}`,
      client_name: "Test client",
      redirect_uris: [REDIRECT],
      client_uri: null,
      logo_uri: null,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: null,
      secret_hash: null,
      created_at: stamp(),
      ...over,
    });
    const grantFixture = (b: BootstrapBundle, client: OAuthClient, over: Partial<OAuthGrant> = {}): OAuthGrant => ({
      id: uuidv7(),
      workspace_id: b.workspace.id,
      identity_id: b.owner.identity.id,
      client_id: client.client_id,
      scopes: ["work:read"],
      issuer: ISSUER,
      created_at: stamp(),
      last_used_at: null,
      revoked_at: null,
      ...over,
    });
    const tokenFixture = (
      grant: OAuthGrant,
      kind: OAuthToken["kind"],
      raw: string,
      expiresAt = "2099-01-01T00:00:00.000Z",
    ): OAuthToken => ({
      token_hash: hashSecret(raw),
      kind,
      workspace_id: grant.workspace_id,
      grant_id: grant.id,
      created_at: stamp(),
      expires_at: expiresAt,
      revoked_at: null,
    });
    const codeFixture = async (b: BootstrapBundle, client: OAuthClient) => {
      const raw = newAuthorizationCode();
      const code = {
        code_hash: hashSecret(raw),
        workspace_id: b.workspace.id,
        grant_id: uuidv7(),
        client_id: client.client_id,
        identity_id: b.owner.identity.id,
        issuer: ISSUER,
        redirect_uri: REDIRECT,
        scopes: ["work:read" as const, "work:write" as const],
        code_challenge: s256Challenge(VERIFIER),
        created_at: stamp(),
        expires_at: "2099-01-01T00:00:00.000Z",
      };
      await s.oauthCodes.insert(code);
      return { raw, code };
    };
    const setup = async () => {
      const b = await bootstrapped(s);
      const client = clientFixture();
      expect(await s.oauthClients.insert(client)).toBe("ok");
      return { b, client };
    };
    const principalOf = (b: BootstrapBundle, over: Partial<Principal> = {}): Principal => ({
      workspaceId: b.workspace.id,
      kind: "identity",
      identityId: b.owner.identity.id,
      memberId: b.member.id,
      role: "owner",
      via: "api_key",
      credentialId: b.apiKey.id,
      scopes: ["work:read", "work:write", "topics:write"],
      ...over,
    });
    /** A code issued and redeemed through the use cases: the token answer. */
    const authorize = async (b: BootstrapBundle, client: OAuthClient, d: CoreDeps<IdentityStores & Stores>) => {
      const issued = await issueCode(d, {
        client_id: client.client_id,
        identity_id: b.owner.identity.id,
        workspace_id: b.workspace.id,
        issuer: ISSUER,
        redirect_uri: REDIRECT,
        scopes: ["work:read", "work:write"],
        code_challenge: s256Challenge(VERIFIER),
        code_challenge_method: "S256",
      });
      if (!issued.ok) throw new Error(issued.error.description);
      const redeemed = await redeemCode(d, {
        client,
        code: issued.value.code,
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
        issuer: ISSUER,
      });
      if (!redeemed.ok) throw new Error(redeemed.error.description);
      return { tokens: redeemed.value, grantId: issued.value.grant_id };
    };
    const tokensOf = (r: { ok: boolean; value?: TokenSet }) => r.value as TokenSet;

    // ---- clients ----

    test("OAuthClientStore.insert() keeps a client; get() and getMany() read it back, unknown ids are absent", async () => {
      const c = clientFixture({
        redirect_uris: [REDIRECT, "http://127.0.0.1/cb"],
        scope: "work:read work:write",
        secret_hash: hashSecret("s"),
      });
      expect(await s.oauthClients.insert(c)).toBe("ok");
      expect(await s.oauthClients.insert({ ...c, client_name: "other" })).toBe("taken");
      expect(await s.oauthClients.get(c.client_id)).toEqual(c);
      expect(await s.oauthClients.get("wkc_unknown")).toBeNull();
      expect(await s.oauthClients.getMany([c.client_id, "wkc_unknown"])).toEqual([c]);
      expect(await s.oauthClients.getMany([])).toEqual([]);
    });

    test("registerClient() stores only the secret's hash; authenticateClient() checks it by the registered method", async () => {
      const { d } = deps();
      const reg = await registerClient(d, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_post", extra: 1 });
      if (!reg.ok) throw new Error(reg.error.description);
      const secret = reg.value.client_secret!;
      expect(secret.startsWith("wkcs_")).toBe(true);
      const stored = await s.oauthClients.get(reg.value.client_id);
      expect(stored?.secret_hash).toBe(hashSecret(secret));
      expect(JSON.stringify(stored)).not.toContain(secret);
      const id = reg.value.client_id;
      expect((await authenticateClient(d, { client_id: id, method: "post", client_secret: secret })).ok).toBe(true);
      expect(await authenticateClient(d, { client_id: id, method: "basic", client_secret: secret })).toMatchObject({ ok: false });
      expect(await authenticateClient(d, { client_id: id, method: "post", client_secret: "wkcs_wrong" })).toMatchObject({
        ok: false,
        error: { code: "invalid_client" },
      });
    });

    // ---- codes ----

    test("OAuthCodeStore.spend(): the first attempt is first, a later one marks the code reused; unknown is null", async () => {
      const { b, client } = await setup();
      const { code } = await codeFixture(b, client);
      const first = await s.oauthCodes.spend(code.code_hash, "2026-02-01T00:00:00.000Z");
      expect(first).toEqual({ code: { ...code, spent_at: "2026-02-01T00:00:00.000Z", reused_at: null }, first: true });
      const again = await s.oauthCodes.spend(code.code_hash, "2026-02-01T00:00:01.000Z");
      expect(again).toMatchObject({ first: false, code: { spent_at: "2026-02-01T00:00:00.000Z", reused_at: "2026-02-01T00:00:01.000Z" } });
      await s.oauthCodes.spend(code.code_hash, "2026-02-01T00:00:02.000Z");
      expect((await s.oauthCodes.get(code.code_hash))?.reused_at).toBe("2026-02-01T00:00:01.000Z");
      expect(await s.oauthCodes.spend(hashSecret("unknown"), stamp())).toBeNull();
      expect(await s.oauthCodes.get(hashSecret("unknown"))).toBeNull();
    });

    test("OAuthCodeStore.spend() of one code, 10 at once: exactly one is first", async () => {
      const { b, client } = await setup();
      const { code } = await codeFixture(b, client);
      const spends = await Promise.all(Array.from({ length: 10 }, () => s.oauthCodes.spend(code.code_hash, stamp())));
      expect(spends.filter((x) => x?.first).length).toBe(1);
      expect(spends.filter((x) => x && !x.first).length).toBe(9);
    });

    test("redeemCode() of one code, twice at once: exactly one gets tokens, and the code's tokens end either way", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const issued = await issueCode(d, {
        client_id: client.client_id,
        identity_id: b.owner.identity.id,
        workspace_id: b.workspace.id,
        issuer: ISSUER,
        redirect_uri: REDIRECT,
        scopes: ["work:read"],
        code_challenge: s256Challenge(VERIFIER),
        code_challenge_method: "S256",
      });
      if (!issued.ok) throw new Error(issued.error.description);
      const req = { client, code: issued.value.code, code_verifier: VERIFIER, redirect_uri: REDIRECT, issuer: ISSUER };
      const [x, y] = await Promise.all([redeemCode(d, req), redeemCode(d, req)]);
      const winners = [x, y].filter((r) => r.ok);
      expect(winners.length).toBeLessThanOrEqual(1);
      expect([x, y].filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toContain("invalid_grant");
      // The second attempt revokes what the first issued: no token of the code survives.
      for (const w of winners) expect(await authenticateAccessToken(d, tokensOf(w).access_token)).toBeNull();
      expect((await s.oauthGrants.get(b.workspace.id, issued.value.grant_id))?.revoked_at ?? "never created").not.toBeNull();
    });

    test("redeemCode() spends the code on a wrong verifier; presented again it is invalid_grant and revokes", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const { raw, code } = await codeFixture(b, client);
      const wrong = await redeemCode(d, { client, code: raw, code_verifier: "w".repeat(43), redirect_uri: REDIRECT, issuer: ISSUER });
      expect(wrong).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
      const right = await redeemCode(d, { client, code: raw, code_verifier: VERIFIER, redirect_uri: REDIRECT, issuer: ISSUER });
      expect(right).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
      expect((await s.oauthCodes.get(code.code_hash))?.reused_at).not.toBeNull();
    });

    test("redeemCode() refuses another redirect URI, issuer or client, and an expired code (clock past 60 s)", async () => {
      const { b, client } = await setup();
      const other = clientFixture();
      await s.oauthClients.insert(other);
      const start = Date.now();
      const cases: Array<[string, Partial<Parameters<typeof redeemCode>[1]>, number]> = [
        ["redirect", { redirect_uri: "https://app.example.com/other" }, 0],
        ["issuer", { issuer: "https://elsewhere.example.com" }, 0],
        ["client", { client: other }, 0],
        ["expired", {}, 60_000],
      ];
      for (const [, over, later] of cases) {
        const { d, clock } = deps(start);
        const issued = await issueCode(d, {
          client_id: client.client_id,
          identity_id: b.owner.identity.id,
          workspace_id: b.workspace.id,
          issuer: ISSUER,
          redirect_uri: REDIRECT,
          scopes: ["work:read"],
          code_challenge: s256Challenge(VERIFIER),
          code_challenge_method: "S256",
        });
        if (!issued.ok) throw new Error(issued.error.description);
        clock.advance(later);
        const r = await redeemCode(d, {
          client,
          code: issued.value.code,
          code_verifier: VERIFIER,
          redirect_uri: REDIRECT,
          issuer: ISSUER,
          ...over,
        });
        expect(r).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
      }
    });

    // ---- tokens ----

    test("authenticateAccessToken() answers the token's person, workspace, client and scopes; null once expired (1 hour)", async () => {
      const { b, client } = await setup();
      const { d, clock } = deps();
      const { tokens, grantId } = await authorize(b, client, d);
      expect(tokens.access_token.startsWith("wkat_")).toBe(true);
      expect(tokens.refresh_token?.startsWith("wkrt_")).toBe(true);
      expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "work:read work:write" });
      expect(await authenticateAccessToken(d, tokens.access_token)).toMatchObject({
        identity_id: b.owner.identity.id,
        workspace_id: b.workspace.id,
        client_id: client.client_id,
        scopes: ["work:read", "work:write"],
        grant_id: grantId,
      });
      expect(await authenticateAccessToken(d, tokens.refresh_token!)).toBeNull();
      expect(await authenticateAccessToken(d, newAccessToken())).toBeNull();
      clock.advance(3600_000);
      expect(await authenticateAccessToken(d, tokens.access_token)).toBeNull();
    });

    test("OAuthTokenStore: lookups go by hash and kind, with the grant as it is now", async () => {
      const { b, client } = await setup();
      const grant = grantFixture(b, client);
      await s.oauthGrants.insert(grant);
      const access = tokenFixture(grant, "access", newAccessToken());
      const refresh = tokenFixture(grant, "refresh", newRefreshToken());
      await s.oauthTokens.insert([access, refresh]);
      expect(await s.oauthTokens.findAccess(access.token_hash)).toEqual({ token: access, grant });
      expect(await s.oauthTokens.findRefresh(refresh.token_hash)).toEqual({ token: { ...refresh, rotated_at: null }, grant });
      expect(await s.oauthTokens.findAccess(refresh.token_hash)).toBeNull();
      expect(await s.oauthTokens.findRefresh(access.token_hash)).toBeNull();
      expect(await s.oauthTokens.revokeAccess(access.token_hash, "2026-03-01T00:00:00.000Z")).toBe(true);
      expect(await s.oauthTokens.revokeAccess(access.token_hash, stamp())).toBe(false);
      expect((await s.oauthTokens.findAccess(access.token_hash))?.token.revoked_at).toBe("2026-03-01T00:00:00.000Z");
    });

    test("OAuthTokenStore.rotateRefresh() of one token, 10 at once: exactly one rotates and stores its successors", async () => {
      const { b, client } = await setup();
      const grant = grantFixture(b, client);
      await s.oauthGrants.insert(grant);
      const refresh = tokenFixture(grant, "refresh", newRefreshToken());
      await s.oauthTokens.insert([refresh]);
      const successors = Array.from({ length: 10 }, () => tokenFixture(grant, "refresh", newRefreshToken()));
      const outcomes = await Promise.all(successors.map((n) => s.oauthTokens.rotateRefresh(refresh.token_hash, [n], stamp())));
      expect(outcomes.filter((o) => o === "rotated").length).toBe(1);
      expect(outcomes.filter((o) => o === "replayed").length).toBe(9);
      const stored = await Promise.all(successors.map((n) => s.oauthTokens.findRefresh(n.token_hash)));
      expect(stored.filter((x) => x !== null).length).toBe(1);
      expect((await s.oauthTokens.findRefresh(refresh.token_hash))?.token.rotated_at).not.toBeNull();
      expect(await s.oauthTokens.rotateRefresh(hashSecret("unknown"), [], stamp())).toBe("not_found");
    });

    test("refreshTokens() rotates; the rotated-out token presented again is invalid_grant and revokes the grant", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const { tokens } = await authorize(b, client, d);
      const next = await refreshTokens(d, { client, refresh_token: tokens.refresh_token!, issuer: ISSUER });
      if (!next.ok) throw new Error(next.error.description);
      expect(next.value.refresh_token).not.toBe(tokens.refresh_token);
      expect(await authenticateAccessToken(d, next.value.access_token)).not.toBeNull();
      const replay = await refreshTokens(d, { client, refresh_token: tokens.refresh_token!, issuer: ISSUER });
      expect(replay).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
      expect(await authenticateAccessToken(d, next.value.access_token)).toBeNull();
      expect(await authenticateAccessToken(d, tokens.access_token)).toBeNull();
      expect(await refreshTokens(d, { client, refresh_token: next.value.refresh_token!, issuer: ISSUER })).toMatchObject({ ok: false });
    });

    test("refreshTokens() of one token, twice at once: exactly one gets tokens", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const { tokens } = await authorize(b, client, d);
      const req = { client, refresh_token: tokens.refresh_token!, issuer: ISSUER };
      const results = await Promise.all([refreshTokens(d, req), refreshTokens(d, req)]);
      expect(results.filter((r) => r.ok).length).toBe(1);
      expect(results.filter((r) => !r.ok).length).toBe(1);
    });

    test("refreshTokens(): a refresh token lives 30 days from its issue, and its grant's tokens 90 days at most", async () => {
      const { b, client } = await setup();
      const day = 86_400_000;
      const { d, clock } = deps();
      let { tokens } = await authorize(b, client, d);
      clock.advance(30 * day);
      expect(await refreshTokens(d, { client, refresh_token: tokens.refresh_token!, issuer: ISSUER })).toMatchObject({
        ok: false,
        error: { code: "invalid_grant" },
      });
      const second = deps();
      ({ tokens } = await authorize(b, client, second.d));
      for (let i = 0; i < 3; i++) {
        second.clock.advance(29 * day);
        const r = await refreshTokens(second.d, { client, refresh_token: tokens.refresh_token!, issuer: ISSUER });
        if (!r.ok) throw new Error(r.error.description);
        tokens = r.value;
      }
      // 87 days in: the last refresh token ends at day 90, not 30 days later.
      second.clock.advance(3 * day);
      expect(await refreshTokens(second.d, { client, refresh_token: tokens.refresh_token!, issuer: ISSUER })).toMatchObject({ ok: false });
    });

    test("revokeToken(): an access token ends alone; a refresh token ends its grant; an unknown token is ok", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const one = await authorize(b, client, d);
      expect(await revokeToken(d, client, one.tokens.access_token)).toEqual({ ok: true, value: undefined });
      expect(await authenticateAccessToken(d, one.tokens.access_token)).toBeNull();
      expect((await refreshTokens(d, { client, refresh_token: one.tokens.refresh_token!, issuer: ISSUER })).ok).toBe(true);
      const two = await authorize(b, client, d);
      await revokeToken(d, client, two.tokens.refresh_token!);
      expect(await authenticateAccessToken(d, two.tokens.access_token)).toBeNull();
      expect((await s.oauthGrants.get(b.workspace.id, two.grantId))?.revoked_at).not.toBeNull();
      expect(await revokeToken(d, client, "not-a-token")).toEqual({ ok: true, value: undefined });
    });

    // ---- grants ----

    test("OAuthGrantStore.revoke() ends every token of the grant at once, and only once", async () => {
      const { b, client } = await setup();
      const grant = grantFixture(b, client);
      await s.oauthGrants.insert(grant);
      const tokens = [tokenFixture(grant, "access", newAccessToken()), tokenFixture(grant, "refresh", newRefreshToken())];
      await s.oauthTokens.insert(tokens);
      expect(await s.oauthGrants.revoke(b.workspace.id, grant.id, "2026-04-01T00:00:00.000Z")).toBe(true);
      expect(await s.oauthGrants.revoke(b.workspace.id, grant.id, stamp())).toBe(false);
      expect((await s.oauthTokens.findAccess(tokens[0]!.token_hash))?.grant.revoked_at).toBe("2026-04-01T00:00:00.000Z");
      expect((await s.oauthTokens.findRefresh(tokens[1]!.token_hash))?.grant.revoked_at).toBe("2026-04-01T00:00:00.000Z");
      expect(await s.oauthGrants.revoke(b.workspace.id, uuidv7(), stamp())).toBe(false);
    });

    test("OAuthGrantStore.list(): live grants newest first, keyset pages, one person's or all; touch() records the last use", async () => {
      const { b, client } = await setup();
      const m = await s.members.add(identity(), newMember(b.workspace.id));
      if (m === "already_member") throw new Error("unexpected");
      const grants = [
        grantFixture(b, client),
        grantFixture(b, client, { identity_id: m.identity_id }),
        grantFixture(b, client),
        grantFixture(b, client),
      ];
      for (const g of grants) await s.oauthGrants.insert(g);
      await s.oauthGrants.revoke(b.workspace.id, grants[3]!.id, stamp());
      await s.oauthGrants.touch(b.workspace.id, grants[0]!.id, "2026-05-01T00:00:00.000Z");
      const ids = (gs: OAuthGrant[]) => gs.map((g) => g.id);
      expect(ids(await s.oauthGrants.list(b.workspace.id, null, { limit: 10 }))).toEqual([grants[2]!.id, grants[1]!.id, grants[0]!.id]);
      const first = await s.oauthGrants.list(b.workspace.id, null, { limit: 2 });
      expect(ids(first)).toEqual([grants[2]!.id, grants[1]!.id]);
      const next = await s.oauthGrants.list(b.workspace.id, null, { limit: 2, before: first[1]!.id });
      expect(next).toEqual([{ ...grants[0]!, last_used_at: "2026-05-01T00:00:00.000Z" }]);
      expect(ids(await s.oauthGrants.list(b.workspace.id, b.owner.identity.id, { limit: 10 }))).toEqual([grants[2]!.id, grants[0]!.id]);
      expect(ids(await s.oauthGrants.list(b.workspace.id, m.identity_id, { limit: 10 }))).toEqual([grants[1]!.id]);
    });

    test("OAuthGrantStore: a grant of workspace A is never listed, read or revoked through workspace B", async () => {
      const { b: a, client } = await setup();
      const other = await bootstrapped(s);
      const grant = grantFixture(a, client);
      await s.oauthGrants.insert(grant);
      expect(await s.oauthGrants.list(other.workspace.id, null, { limit: 100 })).toEqual([]);
      expect(await s.oauthGrants.list(other.workspace.id, a.owner.identity.id, { limit: 100 })).toEqual([]);
      expect(await s.oauthGrants.get(other.workspace.id, grant.id)).toBeNull();
      expect(await s.oauthGrants.revoke(other.workspace.id, grant.id, stamp())).toBe(false);
      expect((await s.oauthGrants.get(a.workspace.id, grant.id))?.revoked_at).toBeNull();
      const { d } = deps();
      expect(await revokeGrant(d, principalOf(other), grant.id)).toMatchObject({ ok: false, error: { code: "not_found" } });
      expect(await listGrants(d, principalOf(other))).toEqual({ ok: true, value: { items: [], nextCursor: null } });
    });

    test("listGrants() pages with nextCursor and names the client; a member sees their own, revokeGrant() ends one", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const made = [await authorize(b, client, d), await authorize(b, client, d), await authorize(b, client, d)];
      const page1 = await listGrants(d, principalOf(b), { limit: 2 });
      if (!page1.ok) throw new Error(page1.error.description);
      expect(page1.value.items.map((g) => g.id)).toEqual([made[2]!.grantId, made[1]!.grantId]);
      expect(page1.value.items[0]).toMatchObject({
        client_id: client.client_id,
        client_name: "Test client",
        scopes: ["work:read", "work:write"],
      });
      const page2 = await listGrants(d, principalOf(b), { limit: 2, cursor: page1.value.nextCursor });
      expect(page2).toMatchObject({ ok: true, value: { nextCursor: null } });
      expect(await listGrants(d, principalOf(b), { limit: 101 })).toMatchObject({ ok: false, error: { code: "invalid_request" } });
      const member = principalOf(b, { identityId: uuidv7(), role: "member" });
      expect(await listGrants(d, member)).toEqual({ ok: true, value: { items: [], nextCursor: null } });
      // Another person's grant reads as absent to a member (ADR 051), as another member's API key does.
      expect(await revokeGrant(d, member, made[0]!.grantId)).toMatchObject({ ok: false, error: { code: "not_found" } });
      expect(await revokeGrant(d, principalOf(b), made[0]!.grantId)).toMatchObject({ ok: true });
      expect(await authenticateAccessToken(d, made[0]!.tokens.access_token)).toBeNull();
      expect(await revokeGrant(d, principalOf(b), made[0]!.grantId)).toMatchObject({ ok: false, error: { code: "not_found" } });
    });

    test("WorkspaceStore.delete() removes the workspace's codes, grants and tokens", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const { tokens, grantId } = await authorize(b, client, d);
      const { code } = await codeFixture(b, client);
      expect(await s.workspaces.delete(b.workspace.id)).toBe(true);
      expect(await s.oauthGrants.get(b.workspace.id, grantId)).toBeNull();
      expect(await s.oauthTokens.findAccess(hashSecret(tokens.access_token))).toBeNull();
      expect(await s.oauthTokens.findRefresh(hashSecret(tokens.refresh_token!))).toBeNull();
      expect(await s.oauthCodes.get(code.code_hash)).toBeNull();
      expect(await s.oauthClients.get(client.client_id)).not.toBeNull();
    });

    // ---- sessions ----

    test("SessionStore via createSession()/validateSession(): the id is the token's SHA-256; 30 days, extended under 15 left", async () => {
      const b = await bootstrapped(s);
      const day = 86_400_000;
      const { d, clock } = deps();
      const { token, session } = await createSession(d, b.owner.identity.id);
      expect(token).toMatch(/^[a-z2-7]{32}$/);
      expect(session.id).toBe(hashSecret(token));
      expect(await s.sessions.get(session.id)).toEqual(session);
      clock.advance(14 * day);
      expect(await validateSession(d, token)).toEqual({ session, extended: false });
      clock.advance(2 * day);
      const extended = await validateSession(d, token);
      expect(extended?.extended).toBe(true);
      expect(extended?.session.expires_at).toBe(new Date(clock.now().getTime() + 30 * day).toISOString());
      expect((await s.sessions.get(session.id))?.expires_at).toBe(extended!.session.expires_at);
      clock.advance(30 * day);
      expect(await validateSession(d, token)).toBeNull();
      expect(await s.sessions.get(session.id)).toBeNull();
    });

    test("SessionStore.deleteAllOf() ends every session of a person and no one else's", async () => {
      const a = await bootstrapped(s);
      const other = await bootstrapped(s);
      const { d } = deps();
      const mine = [await createSession(d, a.owner.identity.id), await createSession(d, a.owner.identity.id)];
      const theirs = await createSession(d, other.owner.identity.id);
      await invalidateSessionsOf(d, a.owner.identity.id);
      for (const m of mine) expect(await validateSession(d, m.token)).toBeNull();
      expect(await validateSession(d, theirs.token)).toMatchObject({ extended: false });
    });

    // ---- OIDC links ----

    test("IdentityLinkStore: (issuer, subject) is unique, and a person links once per issuer", async () => {
      const b = await bootstrapped(s);
      const other = await bootstrapped(s);
      const link = {
        issuer: "https://idp.example.com",
        subject: uuidv7(),
        identity_id: b.owner.identity.id,
        email: b.owner.identity.email,
        created_at: stamp(),
        deactivated_at: null,
      };
      expect(await s.identityLinks.insert(link)).toBe("ok");
      expect(await s.identityLinks.insert({ ...link, identity_id: other.owner.identity.id })).toBe("taken");
      expect(await s.identityLinks.insert({ ...link, subject: uuidv7() })).toBe("taken");
      expect(await s.identityLinks.insert({ ...link, issuer: "https://other-idp.example.com" })).toBe("ok");
      expect(await s.identityLinks.get(link.issuer, link.subject)).toEqual(link);
      expect(await s.identityLinks.get(link.issuer, "nobody")).toBeNull();
      expect(await s.identityLinks.deactivate(link.issuer, link.subject, "2026-06-01T00:00:00.000Z")).toEqual({
        ...link,
        deactivated_at: "2026-06-01T00:00:00.000Z",
      });
      expect((await s.identityLinks.deactivate(link.issuer, link.subject, stamp()))?.deactivated_at).toBe("2026-06-01T00:00:00.000Z");
      expect(await s.identityLinks.deactivate(link.issuer, "nobody", stamp())).toBeNull();
    });

    test("resolveOidcIdentity() links by verified e-mail the first time; deactivateIdentity() ends sessions and grants", async () => {
      const { b, client } = await setup();
      const { d } = deps();
      const claims = { issuer: "https://idp.example.com", subject: uuidv7(), email: b.owner.identity.email, email_verified: true };
      expect(await resolveOidcIdentity(d, { ...claims, email_verified: false })).toMatchObject({ ok: false, error: { code: "forbidden" } });
      expect(await resolveOidcIdentity(d, claims)).toEqual({ ok: true, value: { identity_id: b.owner.identity.id, linked: true } });
      expect(await resolveOidcIdentity(d, { ...claims, email: "changed@example.com" })).toEqual({
        ok: true,
        value: { identity_id: b.owner.identity.id, linked: false },
      });
      const session = await createSession(d, b.owner.identity.id);
      const { tokens } = await authorize(b, client, d);
      expect((await deactivateIdentity(d, claims.issuer, claims.subject)).ok).toBe(true);
      expect(await validateSession(d, session.token)).toBeNull();
      expect(await authenticateAccessToken(d, tokens.access_token)).toBeNull();
      expect(await resolveOidcIdentity(d, claims)).toMatchObject({ ok: false, error: { code: "forbidden" } });
      expect(await deactivateIdentity(d, claims.issuer, "nobody")).toMatchObject({ ok: false, error: { code: "not_found" } });
    });
  });
}
