import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES, type Scope } from "../../core/access/scopes.ts";
import { canDeleteRelation, canRelateTopics } from "../../core/topics/policy.ts";
import type { Principal } from "../../core/access/principal.ts";
import { graphEtag } from "../../core/topics/graph.ts";
import { changedFields, conflictingFields, normalizePatch, patchToTopic, touchedFields } from "../../core/topics/merge-patch.ts";
import { relationKey } from "../../core/topics/model.ts";
import { tagsOf } from "../../core/topics/topic-access.ts";
import type { Workspace } from "../../core/workspaces/model.ts";
import { topicFixture } from "../contract/fixtures.ts";

const ws = "01939a3e-0000-7000-8000-000000000001";

describe("merge patches", () => {
  const base = topicFixture(ws, { title: "T0", body: "B0", tags: ["a"], source_url: "https://x.test" });

  test("touchedFields() names the patch's fields in a stable order, null ones included", () => {
    expect(touchedFields({ tags: ["x"], title: "t", source_url: null })).toEqual(["title", "tags", "source_url"]);
  });

  test("patchToTopic() turns null into a cleared field and leaves untouched fields out", () => {
    expect(patchToTopic({ source_url: null, body: "b" })).toEqual({ body: "b", source_url: null });
  });

  test("patchToTopic() reads null as RFC 7396 removal for every removable field", () => {
    const all = { body: null, tags: null, area_id: null, repo_id: null, anchors: null, kind: null, source_url: null };
    expect(patchToTopic(all)).toEqual({ body: "", tags: [], area_id: null, repo_id: null, anchors: [], kind: "note", source_url: null });
    // Each removal is a list of its own: topics never share one.
    expect(patchToTopic({ tags: null }).tags).not.toBe(patchToTopic({ tags: null }).tags);
  });

  test("changedFields() and conflictingFields() compare a null with what it removes to", () => {
    const tagged = { ...base, tags: ["a"], anchors: ["src/**"], kind: "doc" as const };
    expect(changedFields({ tags: null, anchors: null, kind: null }, tagged)).toEqual(["tags", "anchors", "kind"]);
    const bare = { ...base, tags: [], anchors: [], kind: "note" as const, body: "" };
    expect(changedFields({ tags: null, anchors: null, kind: null, body: null }, bare)).toEqual([]);
    // The tags were emptied meanwhile: the removal converged, no conflict; retagged: a conflict.
    expect(conflictingFields({ tags: null }, tagged, { ...tagged, tags: [] })).toEqual([]);
    expect(conflictingFields({ tags: null }, tagged, { ...tagged, tags: ["b"] })).toEqual(["tags"]);
  });

  test("changedFields() leaves out fields already at the patched value", () => {
    expect(changedFields({ title: "T0", body: "new" }, base)).toEqual(["body"]);
  });

  test("conflictingFields() flags a touched field changed since the base, unless it converged", () => {
    const now = { ...base, title: "T1", body: "B1", tags: ["a", "b"] };
    expect(conflictingFields({ title: "T2", body: "B1", source_url: null }, base, now)).toEqual(["title"]);
    expect(conflictingFields({ tags: ["c"] }, base, now)).toEqual(["tags"]);
    expect(conflictingFields({ source_url: null }, base, now)).toEqual([]);
    // Without the base snapshot, every touched field not already at its patched value conflicts.
    expect(conflictingFields({ title: "T1", body: "x" }, null, now)).toEqual(["body"]);
  });

  test("normalizePatch() normalises and sorts tags and drops duplicate anchors", () => {
    expect(normalizePatch({ tags: ["Zeta", "alpha", "ALPHA"], anchors: ["src/**", "src/**"] }, tagsOf)).toEqual({
      tags: ["alpha", "zeta"],
      anchors: ["src/**"],
    });
  });

  test("normalizePatch() keeps a null as sent", () => {
    expect(normalizePatch({ tags: null, anchors: null }, tagsOf)).toEqual({ tags: null, anchors: null });
  });
});

describe("relations", () => {
  test("relationKey() orders a symmetric pair and keeps a directed one as given", () => {
    expect(relationKey("a", "b", "relates_to")).toBe(relationKey("b", "a", "relates_to"));
    expect(relationKey("a", "b", "contradicts")).toBe(relationKey("b", "a", "contradicts"));
    expect(relationKey("a", "b", "depends_on")).not.toBe(relationKey("b", "a", "depends_on"));
    expect(relationKey("a", "b", "depends_on")).not.toBe(relationKey("a", "b", "part_of"));
  });
});

describe("graph ETags", () => {
  const workspace: Workspace = {
    id: ws,
    slug: "w",
    name: "w",
    plan: "free",
    settings: { review_interval_days: 90 },
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
  const fp = { lastEventId: "e1", eventCount: 3, relationMarker: "7", staleCount: 0 };

  test("graphEtag() is a strong tag that moves with every part of the fingerprint and the representation", async () => {
    const tag = await graphEtag(fp, workspace, "nodes-edges", false);
    expect(tag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await graphEtag(fp, workspace, "nodes-edges", false)).toBe(tag);
    const others = await Promise.all([
      graphEtag({ ...fp, lastEventId: "e2" }, workspace, "nodes-edges", false),
      graphEtag({ ...fp, eventCount: 4 }, workspace, "nodes-edges", false),
      graphEtag({ ...fp, relationMarker: "8" }, workspace, "nodes-edges", false),
      graphEtag({ ...fp, staleCount: 1 }, workspace, "nodes-edges", false),
      graphEtag(fp, { ...workspace, settings: { review_interval_days: 30 } }, "nodes-edges", false),
      graphEtag(fp, workspace, "adjacency", false),
      graphEtag(fp, workspace, "nodes-edges", true),
    ]);
    expect(new Set([tag, ...others]).size).toBe(8);
  });
});

describe("relation policies", () => {
  const base: Principal = {
    workspaceId: "w",
    kind: "identity",
    identityId: "i",
    memberId: "m",
    role: "member",
    via: "api_key",
    credentialId: "k",
    scopes: API_KEY_SCOPES,
  };
  const service: Principal = { ...base, kind: "service", identityId: null, memberId: null, role: null };
  const oauth = (scopes: Scope[]): Principal => ({ ...base, role: "owner", via: "oauth", scopes });

  test("canRelateTopics() takes scope topics:write over OAuth; API keys carry the full role", () => {
    expect(canRelateTopics(base)).toBe(true);
    expect(canRelateTopics(service)).toBe(true);
    // Every grant holds work:read (access/scopes.ts).
    expect(canRelateTopics(oauth(["work:read", "topics:write"]))).toBe(true);
    expect(canRelateTopics(oauth(["work:read", "work:write"]))).toBe(false);
  });

  test("canDeleteRelation() holds for people only: never a faceless key or an OAuth client", () => {
    expect(canDeleteRelation(base)).toBe(true);
    expect(canDeleteRelation({ ...base, via: "session" })).toBe(true);
    expect(canDeleteRelation(service)).toBe(false);
    expect(canDeleteRelation(oauth(["topics:write", "work:write"]))).toBe(false);
  });
});
