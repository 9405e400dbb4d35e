import type { ApiKeyRecord } from "../../core/access/model.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { Identity, Member, Workspace } from "../../core/workspaces/model.ts";
import type { BootstrapBundle } from "../../core/workspaces/ports.ts";

let seq = 0;
/** Distinct, increasing timestamps so ordering assertions do not depend on the clock. */
export function stamp(): string {
  return new Date(Date.UTC(2026, 0, 1) + ++seq * 1000).toISOString();
}

export function unique(prefix: string): string {
  return `${prefix}-${uuidv7().slice(-12)}`;
}

export function identity(email = `${unique("p")}@example.com`): Identity {
  return { id: uuidv7(), email, name: "Pat", created_at: stamp() };
}

export function apiKey(workspaceId: string, identityId: string | null): ApiKeyRecord {
  return {
    id: uuidv7(),
    workspace_id: workspaceId,
    name: "k",
    prefix: "wks_abcdefgh",
    identity_id: identityId,
    created_by: identityId,
    key_hash: crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, ""),
    key_ciphertext: "c2VhbGVk",
    created_at: stamp(),
    last_used_at: null,
  };
}

export function bundle(slug = unique("ws"), owner: Identity = identity(), isNew = true): BootstrapBundle {
  const at = stamp();
  const workspace: Workspace = {
    id: uuidv7(),
    slug,
    name: slug,
    plan: "free",
    settings: { review_interval_days: 90 },
    created_at: at,
    updated_at: at,
  };
  const member: Member = { id: uuidv7(), workspace_id: workspace.id, identity_id: owner.id, role: "owner", created_at: at, updated_at: at };
  return { workspace, owner: { identity: owner, isNew }, member, apiKey: apiKey(workspace.id, owner.id) };
}

export function newMember(workspaceId: string, role: Member["role"] = "member") {
  const at = stamp();
  return { id: uuidv7(), workspace_id: workspaceId, role, created_at: at, updated_at: at };
}

/** A draft topic of `workspaceId` at version 1, with `over` applied. */
export function topicFixture(workspaceId: string, over: Partial<Topic> = {}): Topic {
  const at = stamp();
  return {
    id: uuidv7(),
    workspace_id: workspaceId,
    slug: unique("t"),
    title: "A topic",
    body: "",
    tags: [],
    area_id: null,
    repo_id: null,
    anchors: [],
    kind: "note",
    origin: "manual",
    source_url: null,
    owner_id: null,
    author_id: null,
    status: "draft",
    governance: { authoritative: false, approved_by: null, approved_at: null },
    approved_via: null,
    drift: null,
    merged_into: null,
    merged_from: [],
    version: 1,
    created_at: at,
    updated_at: at,
    ...over,
  };
}

/** An active pipeline collection of `workspaceId` at version 1, with a typed schema. */
export function collectionFixture(workspaceId: string, over: Partial<import("../../core/collections/model.ts").Collection> = {}) {
  const at = stamp();
  return {
    id: uuidv7(),
    workspace_id: workspaceId,
    name: "Deals",
    archetype: "pipeline" as const,
    status: "active" as const,
    record_schema: {
      fields: {
        company: { type: "string" as const, required: true },
        amount: { type: "number" as const },
        tags: { type: "list" as const, items: { type: "string" as const } },
        won: { type: "boolean" as const },
        close: { type: "date" as const },
      },
      stages: ["lead", "qualified", "won", "lost"],
    },
    views: [],
    criterion_rel_slugs: [],
    distill_policy: null,
    connector_mapping: null,
    presentation: null,
    owner_identity_id: null,
    created_by: null,
    version: 1,
    created_at: at,
    updated_at: at,
    ...over,
  };
}

/** A record of collection `c` at version 1 (its search text derived from its fields), with `over` applied. */
export function recordFixture(
  c: { workspace_id: string; id: string },
  over: Partial<import("../../core/collections/model.ts").CollectionRecord> = {},
): import("../../core/collections/model.ts").CollectionRecord {
  const at = stamp();
  const fields = over.fields ?? { company: "Acme" };
  return {
    id: uuidv7(),
    workspace_id: c.workspace_id,
    collection_id: c.id,
    fields,
    status: "lead",
    field_meta: {},
    entity_id: null,
    drifted: false,
    search_text: recordSearchText(fields),
    created_by: null,
    updated_by: null,
    version: 1,
    created_at: at,
    updated_at: at,
    ...over,
  };
}

/** The history entry of a record's state `r` (created at version 1, else updated), with `over` applied. */
export function recordChangeFixture(
  r: import("../../core/collections/model.ts").CollectionRecord,
  over: Partial<import("../../core/collections/model.ts").RecordChange> = {},
): import("../../core/collections/model.ts").RecordChange {
  return {
    id: uuidv7(),
    workspace_id: r.workspace_id,
    collection_id: r.collection_id,
    record_id: r.id,
    version: r.version,
    type: r.version === 1 ? "record.created" : "record.updated",
    actor_id: null,
    actor_kind: "human",
    at: r.updated_at,
    diff: [],
    stage: r.version === 1 ? { from: null, to: r.status } : null,
    outcome: null,
    ...over,
  };
}

/** A new workspace bootstrapped through `s` (owner, member, key), its bundle returned. */
export async function bootstrapped(s: import("../../core/stores.ts").Stores): Promise<BootstrapBundle> {
  const b = bundle();
  const result = await s.workspaces.bootstrap(b);
  if (result !== "ok") throw new Error(`fixture: bootstrap answered ${result}`);
  return b;
}
