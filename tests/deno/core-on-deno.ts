// Runs under Deno (not bun:test): proves core and the memory adapter load and work unchanged on
// another runtime. Uses only Deno's built-in test API and Web APIs.
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import {
  addMember,
  applyGovernance,
  authenticateApiKey,
  bootstrapWorkspace,
  type ComposedDeps,
  createCollection,
  createRecord,
  createSecretBox,
  createTopic,
  isAppError,
  queryRecords,
  searchTopics,
  setMemberRole,
  systemClock,
  upsertEntity,
} from "../../core/mod.ts";

declare const Deno: { test(name: string, fn: () => Promise<void>): void };

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(`Assertion failed: ${message}`);
}

Deno.test("core on Deno: bootstrap, authenticate, add a member, keep the last owner", async () => {
  const deps: ComposedDeps = {
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("deno-secret-deno-secret-deno-secret-0"),
  };
  const boot = await bootstrapWorkspace(deps, null, { slug: "deno-land", owner_email: "dino@example.com" });
  assert(boot.api_key.key.startsWith("wks_"), "raw key issued");

  const auth = await authenticateApiKey(deps, boot.api_key.key);
  assert(auth.workspace.slug === "deno-land", "key resolves to its workspace");
  assert(auth.principal.role === "owner", "bootstrap caller is owner");

  const added = await addMember(deps, auth.principal, auth.workspace, { email: "pal@example.com", role: "admin" });
  assert(added.role === "admin", "member added with role");

  let refused = false;
  try {
    await setMemberRole(deps, auth.principal, auth.workspace, boot.member.id, { role: "member" });
  } catch (e) {
    refused = isAppError(e) && e.code === "LAST_OWNER";
  }
  assert(refused, "the last owner cannot be demoted");

  const sealed = await deps.secretBox.seal("hello");
  assert((await deps.secretBox.open(sealed)) === "hello", "secret box round-trips");
});

Deno.test("core on Deno: a topic is written, approved and found by search", async () => {
  const deps: ComposedDeps = {
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("deno-secret-deno-secret-deno-secret-0"),
  };
  const boot = await bootstrapWorkspace(deps, null, { slug: "deno-kb", owner_email: "kb@example.com" });
  const { principal, workspace } = await authenticateApiKey(deps, boot.api_key.key);
  const topic = await createTopic(deps, principal, workspace, { title: "Déploiement rapide", tags: ["Ops Team"] });
  assert(topic.slug === "deploiement-rapide" && topic.tags?.[0] === "ops-team", "slug and tags normalised");
  const approved = await applyGovernance(deps, principal, workspace, topic.slug, "approve", 1);
  assert(approved.trust === "reviewed" && approved.approved_via === "human", "approved by the owner");
  const found = await searchTopics(deps, workspace, { q: "deploiement" });
  assert(found.items.length === 1 && found.items[0]!.id === topic.id, "found by a folded word");
});

Deno.test("core on Deno: code context with a host's code host and matcher (index, validation, match, drift, webhook signature)", async () => {
  const mod = await import("../../core/mod.ts");
  // A minimal matcher and code host of the embedding app's own (core imports no glob library).
  const paths = { compile: (p: string) => (p.endsWith("/**") ? (f: string) => f.startsWith(p.slice(0, -2)) : (f: string) => f === p) };
  const codeHost = { listFiles: async () => ({ commit: "c0ffee", files: ["src/b.ts", "src/a.ts", "README.md"] }) };
  const deps: ComposedDeps = {
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("deno-secret-deno-secret-deno-secret-0"),
    paths,
    codeHost,
    ...mod.codeContextHooks,
  };
  const boot = await bootstrapWorkspace(deps, null, { slug: "deno-code", owner_email: "code@example.com" });
  const { principal, workspace } = await authenticateApiKey(deps, boot.api_key.key);
  const repo = await mod.createRepo(deps, principal, workspace, { provider: "git", full_name: "deno/app", clone_url: "/srv/app" });
  const topic = await createTopic(deps, principal, workspace, { title: "Sources", repo_id: repo.id, anchors: ["src/**", "lib/**"] });
  const v = topic.anchor_validation!;
  assert(v.commit === "c0ffee" && v.anchors[0]!.matches === 2 && v.anchors[1]!.rating === "zero", "anchors validated against the index");
  const matched = await mod.matchFiles(deps, workspace, { paths: ["src/a.ts", "docs/x.md"] });
  assert(matched.files[0]!.topics[0]!.id === topic.id && matched.files[1]!.topics.length === 0, "files matched to topics");
  const drift = await mod.markDrift(deps, principal, workspace, { paths: ["src/b.ts"], commit: "beef" });
  assert(drift.count === 1, "the anchored topic is marked drifted");
  const body = new TextEncoder().encode("{}");
  assert(await mod.verifyHubSignature("s", body, await mod.hubSignature("s", body)), "webhook signatures verify with Web Crypto");
});

Deno.test("core on Deno: a collection takes a record, a typed query finds it, an entity upsert is idempotent", async () => {
  const deps: ComposedDeps = {
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("deno-secret-deno-secret-deno-secret-0"),
  };
  const boot = await bootstrapWorkspace(deps, null, { slug: "deno-coll", owner_email: "coll@example.com" });
  const { principal, workspace } = await authenticateApiKey(deps, boot.api_key.key);
  const c = await createCollection(deps, principal, workspace, {
    name: "Deals",
    archetype: "pipeline",
    record_schema: { fields: { company: { type: "string", required: true }, amount: { type: "number" } } },
  });
  assert(c.record_schema.stages[0] === "lead", "pipeline stages by default");
  await createRecord(deps, principal, workspace, c.id, { fields: { company: "Acme", amount: 9000 }, status: "qualified" });
  await createRecord(deps, principal, workspace, c.id, { fields: { company: "Small", amount: 10 } });
  const found = await queryRecords(deps, workspace, c.id, { filter: { field: "fields.amount", op: "gte", value: 5000 } });
  assert(found.records.length === 1 && found.records[0]!.fields!.company === "Acme", "the typed filter finds the record");
  let invalid = false;
  try {
    await createRecord(deps, principal, workspace, c.id, { fields: { amount: "lots" }, status: "nope" });
  } catch (e) {
    invalid = isAppError(e) && e.code === "VALIDATION_FAILED" && e.details.length === 3;
  }
  assert(invalid, "every record error at once");
  const first = await upsertEntity(deps, principal, workspace, { kind: "company", name: "Acme", dedup_key: "acme.com" });
  const again = await upsertEntity(deps, principal, workspace, { kind: "Company", name: "Acme", dedup_key: " ACME.com" });
  assert(first.result === "created" && again.result === "unchanged" && again.entity.id === first.entity.id, "upsert is idempotent");
});

Deno.test("core on Deno: a Markdown vault imports from a .tar.gz and a .zip (the runtime's gunzip, fflate, modern-tar)", async () => {
  const { importMarkdownTopics } = await import("../../core/mod.ts");
  const { packTar } = await import("modern-tar");
  const { zipSync, strToU8 } = await import("fflate");
  const deps: ComposedDeps = {
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("deno-secret-deno-secret-deno-secret-0"),
  };
  const boot = await bootstrapWorkspace(deps, null, { slug: "deno-vault", owner_email: "vault@example.com" });
  const { principal, workspace } = await authenticateApiKey(deps, boot.api_key.key);
  const a = "---\ntags: [ops]\n---\n# Alpha\nSee [[Beta]].\n";
  const tar = await packTar([{ header: { name: "v/a.md", size: a.length, type: "file" }, body: a }]);
  const gz = new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"));
  const first = await importMarkdownTopics(deps, principal, workspace, gz, {}, 1 << 20);
  assert(first.counts.created === 1 && first.files[0]!.unresolved_links[0] === "Beta", "the tar.gz made one topic, its link unresolved");
  const zip = zipSync({ "v/a.md": strToU8(a), "v/Beta.md": strToU8("# Beta\n") });
  const second = await importMarkdownTopics(deps, principal, workspace, new Blob([zip]).stream(), {}, 1 << 20);
  assert(second.counts.created === 1 && second.counts.unchanged === 1 && second.relations.created === 1, "the zip added Beta and the link");
});
