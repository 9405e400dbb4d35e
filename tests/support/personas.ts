import type { TestApp } from "./test-app.ts";

/** A workspace with an owner, an admin, a member and a faceless service key, each with a key. */
export interface Personas {
  slug: string;
  owner: string;
  admin: string;
  member: string;
  service: string;
  adminMemberId: string;
  memberMemberId: string;
  ownerMemberId: string;
}

export async function personas(t: TestApp, slug: string): Promise<Personas> {
  const { key: owner, body } = await t.bootstrap(slug);
  const add = async (role: string) => {
    const m = await t.call("POST", `/workspaces/${slug}/members`, { key: owner, body: { email: `${role}-${slug}@example.com`, role } });
    if (m.status !== 201) throw new Error(`add ${role}: ${m.status} ${JSON.stringify(m.body)}`);
    const k = await t.call("POST", `/workspaces/${slug}/api-keys`, { key: owner, body: { member_id: m.body.id, name: role } });
    if (k.status !== 201) throw new Error(`key ${role}: ${k.status} ${JSON.stringify(k.body)}`);
    return { id: m.body.id as string, key: k.body.key as string };
  };
  const admin = await add("admin");
  const member = await add("member");
  const svc = await t.call("POST", `/workspaces/${slug}/api-keys`, { key: owner, body: { service: true, name: "ci" } });
  return {
    slug,
    owner,
    admin: admin.key,
    member: member.key,
    service: svc.body.key,
    adminMemberId: admin.id,
    memberMemberId: member.id,
    ownerMemberId: body.member.id,
  };
}
