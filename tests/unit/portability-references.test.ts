import { describe, expect, test } from "bun:test";
import {
  type ArchiveReference,
  cloneUrlWithoutCredentials,
  entityFieldsOf,
  parseArchivePath,
  type ReferenceContext,
  referencesIn,
  rewriteReferences,
} from "../../core/portability/mod.ts";
import { KeySet } from "../../core/portability/key-set.ts";
import { archiveWorkspace } from "./fixtures/archive-workspace.ts";

const fixture = archiveWorkspace();
const all = fixture.all;
const ctx: ReferenceContext = {
  entityFields: (id) => (id === all.collections[0]!.id ? entityFieldsOf(all.collections[0]!.record_schema) : undefined),
};
const NEW = "0196beef-0000-7000-8000-00000000beef";

describe("referencesIn() and rewriteReferences()", () => {
  test("referencesIn() finds a record's entity references: its entity_id and the fields its collection declares entity, lists included", () => {
    const record = all.records[0]!;
    const found = referencesIn("records", record, ctx).filter((f) => f.ref.to === "entities");
    expect(found.map((f) => [f.pointer, f.value])).toEqual([
      ["/entity_id", all.entities[0]!.id],
      ["/fields/company", all.entities[0]!.id],
      ["/fields/contacts/0", all.entities[1]!.id],
    ]);
    // Without the collection's schema, values of fields are not references (a number, a name).
    expect(referencesIn("records", record).filter((f) => f.pointer.startsWith("/fields"))).toEqual([]);
  });

  test("rewriteReferences() moves a remapped topic id through every reference to it, history and snapshots included", () => {
    const runbook = all.topics[0]!;
    const map = (
      ref: ArchiveReference,
      value: string,
    ) => (ref.to === "topics" && ref.field === "id" && value === runbook.id ? NEW : undefined);
    expect(rewriteReferences("relations", all.relations[0]!, map, ctx).from_topic_id).toBe(NEW);
    expect(rewriteReferences("proposals", all.proposals[0]!, map, ctx).topic_id).toBe(NEW);
    expect(rewriteReferences("topic_redirects", all.topic_redirects[0]!, map, ctx).topic_id).toBe(NEW);
    expect(rewriteReferences("share_links", all.share_links[0]!, map, ctx).topic_id).toBe(NEW);
    const old = rewriteReferences("topics", all.topics[1]!, map, ctx);
    expect(old.merged_into).toBe(NEW);
    const event = rewriteReferences("topic_history", all.topic_history[0]!, map, ctx);
    expect(event.topic_id).toBe(NEW);
    expect(event.snapshot!.id).toBe(NEW);
    // The line passed in is left as it was.
    expect(all.relations[0]!.from_topic_id).toBe(runbook.id);
  });

  test("rewriteReferences() maps people through the members, and writes null for a person the map does not know", () => {
    const [alice] = all.members;
    const map = (ref: ArchiveReference, value: string) => (ref.rule === "person" ? (value === alice!.identity_id ? NEW : null) : undefined);
    const topic = rewriteReferences("topics", all.topics[0]!, map, ctx);
    expect(topic.author_id).toBe(NEW);
    expect(topic.governance.approved_by).toBe(NEW);
    expect(topic.owner_id).toBeNull(); // bob: not in this map
    expect(rewriteReferences("collections", all.collections[0]!, map, ctx).owner_identity_id).toBe(NEW);
  });

  test("rewriteReferences() remaps an entity in record values, lists, diffs of entity_id and results, nothing else", () => {
    const company = all.entities[0]!.id;
    const map = (ref: ArchiveReference, value: string) => (ref.to === "entities" && value === company ? NEW : undefined);
    const record = rewriteReferences("records", all.records[0]!, map, ctx);
    expect(record.entity_id).toBe(NEW);
    expect(record.fields).toEqual({ ...all.records[0]!.fields, company: NEW });
    const change = rewriteReferences("record_history", all.record_history[1]!, map, ctx);
    expect(change.diff).toEqual([{ path: "entity_id", before: null, after: NEW }, { path: "status", before: "lead", after: "qualified" }]);
    expect(rewriteReferences("radar_run_results", all.radar_run_results[0]!, map, ctx).entity_id).toBe(NEW);
    expect(rewriteReferences("contact_unlocks", all.contact_unlocks[0]!, map, ctx)).toEqual(all.contact_unlocks[0]!);
  });
});

describe("parseArchivePath()", () => {
  test("parseArchivePath() knows the format's names and nothing else", () => {
    expect(parseArchivePath("manifest.json")).toEqual({ type: "manifest" });
    expect(parseArchivePath("data/records.0001.ndjson")).toEqual({ type: "data", kind: "records", part: 1 });
    expect(parseArchivePath("data/records.0000.ndjson")).toEqual({ type: "unknown" });
    expect(parseArchivePath("data/api_keys.0001.ndjson")).toEqual({ type: "unknown" });
    expect(parseArchivePath("topics/deploy-runbook.md")).toEqual({ type: "markdown", slug: "deploy-runbook" });
    expect(parseArchivePath("topics/Deploy Runbook.md")).toEqual({ type: "unknown" });
    expect(parseArchivePath("topics/")).toEqual({ type: "folder" });
    expect(parseArchivePath("./manifest.json")).toMatchObject({ type: "unsafe" });
    expect(parseArchivePath("data//records.0001.ndjson")).toMatchObject({ type: "unsafe" });
    expect(parseArchivePath("topics/a\u0000.md")).toMatchObject({ type: "unsafe", reason: "a control character in the name" });
  });
});

describe("cloneUrlWithoutCredentials()", () => {
  test("cloneUrlWithoutCredentials() drops an http(s) user part and any password, keeps ssh user names", () => {
    expect(cloneUrlWithoutCredentials("https://x-access-token:ghp_1@github.com/a/b.git")).toBe("https://github.com/a/b.git");
    expect(cloneUrlWithoutCredentials("https://ghp_token@github.com/a/b.git")).toBe("https://github.com/a/b.git");
    expect(cloneUrlWithoutCredentials("ssh://git:hunter2@host/a/b.git")).toBe("ssh://git@host/a/b.git");
    expect(cloneUrlWithoutCredentials("ssh://git@host/a/b.git")).toBe("ssh://git@host/a/b.git");
    expect(cloneUrlWithoutCredentials("git@github.com:a/b.git")).toBe("git@github.com:a/b.git");
    expect(cloneUrlWithoutCredentials("/srv/git/b")).toBe("/srv/git/b");
  });
});

describe("KeySet", () => {
  test("KeySet holds UUIDs packed and other keys as they are, each once, across growth", () => {
    const set = new KeySet();
    const ids = Array.from(
      { length: 5000 },
      (_, i) => `0196${String(i % 10).repeat(4)}-${(i >>> 8).toString(16).padStart(4, "0")}-7abc-8def-${i.toString(16).padStart(12, "0")}`,
    );
    for (const id of ids) expect(set.add(id)).toBe(true);
    for (const id of ids) expect(set.add(id)).toBe(false);
    expect(set.add("ops")).toBe(true);
    expect(set.add("ops")).toBe(false);
    expect(set.add("0196AAAA-0000-7000-8000-000000000000")).toBe(true); // not lowercase: kept as text
    expect(set.size).toBe(5002);
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect(set.has("0196ffff-0000-7000-8000-000000000000")).toBe(false);
    expect(set.has("00000000-0000-0000-0000-000000000000")).toBe(false);
    expect(set.add("00000000-0000-0000-0000-000000000000")).toBe(true);
    expect(set.has("00000000-0000-0000-0000-000000000000")).toBe(true);
    expect(set.has("billing")).toBe(false);
  });
});
