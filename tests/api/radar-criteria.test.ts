import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const block = (json: unknown) => "```radar-criterion\n" + JSON.stringify(json) + "\n```\n";

describe("radar criteria API", () => {
  let t: TestApp;
  let p: Personas;
  let other: { slug: string; key: string };
  const ws = "/workspaces/criteria";
  const criteria = `${ws}/radar/criteria`;

  const topic = async (title: string, body: string, tags = ["radar-criterion"]) => {
    const res = await t.call("POST", `${ws}/topics`, { key: p.member, body: { title, body, tags } });
    expect(res.status).toBe(201);
    return res.body as { slug: string; version: number };
  };

  beforeAll(async () => {
    t = await makeTestApp();
    p = await personas(t, "criteria");
    other = await t.bootstrap("criteria-other");
  });

  test("GET reads kind and filter from the block, version and trust from the topic, with an ETag", async () => {
    const c = await topic(
      "German SaaS",
      `Intro.\n\n${block({ kind: "company", filter: { countries: ["DE"], industries: ["software"] } })}`,
    );
    const res = await t.call("GET", `${criteria}/${c.slug}`, { key: p.service });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      slug: c.slug,
      title: "German SaaS",
      kind: "company",
      filter: { countries: ["DE"], industries: ["software"] },
      version: 1,
      trust: "draft",
    });
    expect(res.headers.get("etag")).toBe('"1"');
  });

  test("404 without the tag, without the block, with an invalid block (problems in details), or for no topic", async () => {
    const untagged = await topic("Untagged", block({ kind: "company", filter: { countries: ["DE"] } }), []);
    const blockless = await topic("Blockless", "No block here.\n");
    const invalid = await topic("Invalid", block({ kind: "person", filter: { countries: ["DEU"], age: 3 } }));
    for (const slug of [untagged.slug, blockless.slug, invalid.slug, "no-such-topic"]) {
      const res = await t.call("GET", `${criteria}/${slug}`, { key: p.member });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    const res = await t.call("GET", `${criteria}/${invalid.slug}`, { key: p.member });
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["/filter/age", "/filter/countries/0"]);
    expect((await t.call("PATCH", `${criteria}/${blockless.slug}`, { key: p.member, body: { title: "X" } })).status).toBe(404);
  });

  test("another workspace's key gets 404, reading and revising", async () => {
    const c = await topic("Private", block({ kind: "company", filter: { domains: ["acme.example"] } }));
    expect((await t.call("GET", `${criteria}/${c.slug}`, { key: other.key })).status).toBe(404);
    const patch = await t.call("PATCH", `${criteria}/${c.slug}`, { key: other.key, body: { title: "Mine" } });
    expect(patch.status).toBe(404);
    expect((await t.call("GET", `${criteria}/${c.slug}`, { key: p.member })).body.title).toBe("Private");
  });

  test("PATCH makes a new topic version: the block rewritten, the rest of the body kept, visible in history", async () => {
    const intro = "# Buyers\r\n\r\nKeep this *exactly*.\n\n";
    const tail = "\nAnd this tail ```.\n";
    const c = await topic("Buyers", `${intro}${block({ kind: "person", filter: { seniorities: ["vp"] } })}${tail}`);
    const filter = { job_titles: ["vp sales"], company: { countries: ["DE"], employee_count: { min: 50, max: 500 } } };
    const res = await t.call("PATCH", `${criteria}/${c.slug}`, {
      key: p.member,
      body: { filter, title: "Sales buyers" },
      headers: { "if-match": '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ slug: c.slug, title: "Sales buyers", kind: "person", filter, version: 2, trust: "draft" });
    expect(res.headers.get("etag")).toBe('"2"');
    const history = await t.call("GET", `${ws}/topics/${c.slug}?history=true`, { key: p.member });
    expect(history.body.history.map((h: { version: number; type: string }) => [h.version, h.type])).toEqual([
      [2, "topic.updated"],
      [1, "topic.created"],
    ]);
    const body: string = history.body.body;
    expect(body.startsWith(`${intro}\`\`\`radar-criterion\n`)).toBe(true);
    expect(body.endsWith(`\n\`\`\`\n${tail}`)).toBe(true);
    expect((await t.call("GET", `${criteria}/${c.slug}`, { key: p.member })).body).toMatchObject({ filter, version: 2 });
  });

  test("a stale expected_version or If-Match is 409 VERSION_CONFLICT and writes nothing", async () => {
    const c = await topic("Stale", block({ kind: "company", filter: { keywords: ["saas"] } }));
    await t.call("PATCH", `${criteria}/${c.slug}`, { key: p.member, body: { title: "Stale 2" } });
    const byBody = await t.call("PATCH", `${criteria}/${c.slug}`, {
      key: p.member,
      body: { filter: { keywords: ["b2b"] }, expected_version: 1 },
    });
    expect(byBody.status).toBe(409);
    expect(byBody.body.error.code).toBe("VERSION_CONFLICT");
    const byHeader = await t.call("PATCH", `${criteria}/${c.slug}`, {
      key: p.member,
      body: { filter: { keywords: ["b2b"] } },
      headers: { "if-match": '"1"' },
    });
    expect(byHeader.status).toBe(409);
    expect((await t.call("GET", `${criteria}/${c.slug}`, { key: p.member })).body).toMatchObject({
      title: "Stale 2",
      filter: { keywords: ["saas"] },
      version: 2,
    });
  });

  test("strict bodies: an unknown field, an empty filter, a filter of the other kind, min > max are 400", async () => {
    const c = await topic("Strict", block({ kind: "company", filter: { countries: ["FR"] } }));
    const bodies = [
      { kind: "person" },
      { filter: {} },
      { filter: { countries: [] } },
      { filter: { job_titles: ["cto"] } },
      { filter: { employee_count: { min: 10, max: 5 } } },
      { filter: { countries: ["France"] } },
    ];
    for (const body of bodies) {
      const res = await t.call("PATCH", `${criteria}/${c.slug}`, { key: p.member, body });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_FAILED"]);
    }
    expect((await t.call("GET", `${criteria}/${c.slug}`, { key: p.member })).body.version).toBe(1);
  });

  test("governance is the topic's: a reviewed criterion stays reviewed when a member revises it; the same filter again makes no version", async () => {
    const c = await topic("Reviewed", block({ kind: "company", filter: { countries: ["NL"] } }));
    await t.call("POST", `${ws}/topics/${c.slug}/propose`, { key: p.member });
    expect((await t.call("POST", `${ws}/topics/${c.slug}/approve`, { key: p.admin })).status).toBe(201);
    const res = await t.call("PATCH", `${criteria}/${c.slug}`, { key: p.member, body: { filter: { countries: ["NL", "BE"] } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trust: "reviewed", version: 4, filter: { countries: ["NL", "BE"] } });
    const same = await t.call("PATCH", `${criteria}/${c.slug}`, { key: p.member, body: { filter: { countries: ["NL", "BE"] } } });
    expect(same.body.version).toBe(4);
  });
});
