import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { canManageApiKeys, canManageOthersApiKeys } from "../../core/access/policy.ts";
import type { Principal } from "../../core/access/principal.ts";
import { canPurgeCollection } from "../../core/collections/policy.ts";
import { canReadInbox } from "../../core/sharing/policy.ts";
import { canApprove, canDeleteRelation, canDeleteTopic, canGovern } from "../../core/topics/policy.ts";
import { canAddMember, canDeleteWorkspace, canManageWorkspace, canRemoveMember } from "../../core/workspaces/policy.ts";

/** The modules' policy.ts files as plain functions: who may do what to which object. */
const person = (role: "owner" | "admin" | "member", more: Partial<Principal> = {}): Principal => ({
  workspaceId: "w",
  kind: "identity",
  identityId: `i-${role}`,
  memberId: `m-${role}`,
  role,
  via: "api_key",
  credentialId: "k",
  scopes: API_KEY_SCOPES,
  ...more,
});
const service: Principal = {
  workspaceId: "w",
  scopes: API_KEY_SCOPES,
  kind: "service",
  identityId: null,
  memberId: null,
  role: null,
  via: "api_key",
  credentialId: "k",
};
const readOnly = (p: Principal): Principal => ({ ...p, via: "oauth", scopes: ["work:read"] });

describe("topics policy", () => {
  test("canApprove() lets owners and admins approve a draft or a proposal, nobody a reviewed or archived topic", () => {
    expect(canApprove(person("owner"), { status: "draft" })).toBe(true);
    expect(canApprove(person("admin"), { status: "proposed" })).toBe(true);
    expect(canApprove(person("member"), { status: "proposed" })).toBe(false);
    expect(canApprove(service, { status: "proposed" })).toBe(false);
    expect(canApprove(person("owner"), { status: "reviewed" })).toBe(false);
    expect(canApprove(person("owner"), { status: "archived" })).toBe(false);
  });

  test("canGovern() refuses an owner's or admin's read-only OAuth token every owner/admin action; with work:write it may", () => {
    const states = { reject: "proposed", approve: "draft", unvouch: "reviewed", "vouch-ack": "reviewed", restore: "archived" } as const;
    for (const [action, status] of Object.entries(states) as Array<[keyof typeof states, (typeof states)[keyof typeof states]]>) {
      for (const role of ["owner", "admin"] as const) {
        expect(canGovern(readOnly(person(role)), action, { status })).toBe(false);
        expect(canGovern({ ...person(role), via: "oauth", scopes: ["work:read", "work:write"] }, action, { status })).toBe(true);
      }
    }
    expect(canApprove(readOnly(person("owner")), { status: "proposed" })).toBe(false);
  });

  test("canGovern() lets anyone who may write propose or archive, but not without the write scope", () => {
    expect(canGovern(person("member"), "propose", { status: "draft" })).toBe(true);
    expect(canGovern(service, "archive", { status: "reviewed" })).toBe(true);
    expect(canGovern(readOnly(person("member")), "propose", { status: "draft" })).toBe(false);
  });

  test("canDeleteTopic() lets authors delete their own drafts and proposals, owners and admins anything", () => {
    const member = person("member");
    expect(canDeleteTopic(member, { status: "draft", author_id: member.identityId })).toBe(true);
    expect(canDeleteTopic(member, { status: "proposed", author_id: member.identityId })).toBe(true);
    expect(canDeleteTopic(member, { status: "reviewed", author_id: member.identityId })).toBe(false);
    expect(canDeleteTopic(member, { status: "draft", author_id: "someone-else" })).toBe(false);
    expect(canDeleteTopic(person("admin"), { status: "reviewed", author_id: "someone-else" })).toBe(true);
    expect(canDeleteTopic(readOnly(person("owner")), { status: "draft", author_id: null })).toBe(false);
  });

  test("canDeleteRelation() is for people only, never a service key or an OAuth client", () => {
    expect(canDeleteRelation(person("member"))).toBe(true);
    expect(canDeleteRelation(service)).toBe(false);
    expect(canDeleteRelation({ ...person("owner"), via: "oauth" })).toBe(false);
  });
});

describe("workspaces policy", () => {
  test("canManageWorkspace() and canDeleteWorkspace(): owners and admins manage, owners alone delete", () => {
    expect(canManageWorkspace(person("admin"))).toBe(true);
    expect(canManageWorkspace(person("member"))).toBe(false);
    expect(canDeleteWorkspace(person("owner"))).toBe(true);
    expect(canDeleteWorkspace(person("admin"))).toBe(false);
    expect(canDeleteWorkspace(service)).toBe(false);
  });

  test("canAddMember() lets admins add members and admins, only owners add owners", () => {
    expect(canAddMember(person("admin"), "admin")).toBe(true);
    expect(canAddMember(person("admin"), "owner")).toBe(false);
    expect(canAddMember(person("owner"), "owner")).toBe(true);
    expect(canAddMember(person("member"), "member")).toBe(false);
  });

  test("canRemoveMember() lets anyone leave, admins remove members but not owners", () => {
    const member = person("member");
    expect(canRemoveMember(member, { id: member.memberId!, role: "member" })).toBe(true);
    expect(canRemoveMember(member, { id: "other", role: "member" })).toBe(false);
    expect(canRemoveMember(person("admin"), { id: "other", role: "member" })).toBe(true);
    expect(canRemoveMember(person("admin"), { id: "other", role: "owner" })).toBe(false);
    expect(canRemoveMember(person("owner"), { id: "other", role: "owner" })).toBe(true);
  });
});

describe("access policy: API keys", () => {
  test("canManageApiKeys() refuses service keys; canManageOthersApiKeys() is for owners and admins", () => {
    expect(canManageApiKeys(service)).toBe(false);
    expect(canManageApiKeys(person("member"))).toBe(true);
    expect(canManageOthersApiKeys(person("member"))).toBe(false);
    expect(canManageOthersApiKeys(person("admin"))).toBe(true);
  });
});

describe("collections policy", () => {
  test("canPurgeCollection() lets owners and admins purge any collection, members only their own", () => {
    const member = person("member");
    const theirs = { owner_identity_id: null, created_by: member.identityId };
    const named = { owner_identity_id: member.identityId, created_by: "someone-else" };
    const others = { owner_identity_id: "someone-else", created_by: member.identityId };
    expect(canPurgeCollection(member, theirs)).toBe(true);
    expect(canPurgeCollection(member, named)).toBe(true);
    expect(canPurgeCollection(member, others)).toBe(false);
    expect(canPurgeCollection(person("admin"), others)).toBe(true);
    expect(canPurgeCollection(service, others)).toBe(false);
    expect(canPurgeCollection(readOnly(person("owner")), theirs)).toBe(false);
  });
});

describe("sharing policy", () => {
  test("canReadInbox() is for members; a service key has no inbox", () => {
    expect(canReadInbox(person("member"))).toBe(true);
    expect(canReadInbox(service)).toBe(false);
  });
});
