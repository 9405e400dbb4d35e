import type { Collection, Filter } from "mongodb";
import type { TransferDoc, TransferKind, TransferScope } from "../../../core/kernel/store-transfer.ts";
import type { Area, Repo, Workspace } from "../../../core/workspaces/model.ts";
import { type IdentityTransferDoc, WORKSPACE_TRANSFER_KINDS as K } from "../../../core/workspaces/transfer.ts";
import type { MongoStoreOptions } from "../options.ts";
import type { WorkspaceCollections } from "./collections.ts";
import {
  areaDoc,
  type IdentityDoc,
  identityDoc,
  type MemberDoc,
  repoDoc,
  toArea,
  toIdentity,
  toMember,
  toRepo,
  toWorkspace,
  type WorkspaceDoc,
} from "./documents.ts";
import { isVisible } from "./identity-store.ts";
import { commitRoster, isComplete, latestRoster, latestRosters } from "./roster.ts";

const PAGE = 500;

export interface MongoKindSpec<D extends { _id: string }> {
  name: string;
  tenant: boolean;
  key: readonly string[];
  coll: Collection<D>;
  /** A page of stored documents as transfer documents; one left out is not visible to readers (a bootstrap in flight). */
  toDocs: (page: D[]) => Promise<TransferDoc[]>;
  /** A transfer document as stored. */
  toStored: (doc: TransferDoc) => D;
  /** Whether `toDocs` may leave documents out: then counts are the reads' length, not the collection's. */
  hides?: boolean;
  /** After inserting (documents already there included, so a resumed copy completes it too). */
  afterWrite?: (docs: readonly TransferDoc[]) => Promise<void>;
}

/** Whether every write error of an unordered insert is a duplicate key (a document there already). */
function onlyDuplicates(e: unknown): boolean {
  const err = e as { code?: unknown; writeErrors?: Array<{ code?: unknown }> | { code?: unknown } };
  const list = Array.isArray(err?.writeErrors) ? err.writeErrors : err?.writeErrors ? [err.writeErrors] : [];
  return list.length > 0 ? list.every((w) => w?.code === 11000) : err?.code === 11000;
}

function insertedOf(e: unknown): number {
  const err = e as { insertedCount?: number; result?: { insertedCount?: number } };
  return err.result?.insertedCount ?? err.insertedCount ?? 0;
}

/**
 * A kind over one collection keyed by `_id`: pages of 500 sorted on `_id` (a workspace's on
 * `(workspace_id, _id)`, an index of its own), written by unordered `insertMany` whose duplicate
 * keys (the `_id` or a unique value taken) are left alone. Shared by this group's modules.
 */
export function mongoKind<D extends { _id: string }>(spec: MongoKindSpec<D>): TransferKind {
  const scoped = (scope?: TransferScope): Filter<D> | null => {
    if (scope?.workspaceId === undefined) return {};
    return spec.tenant ? ({ workspace_id: scope.workspaceId } as unknown as Filter<D>) : null;
  };
  async function* read(scope?: TransferScope): AsyncIterable<TransferDoc> {
    const base = scoped(scope);
    if (base === null) return;
    let after: string | null = null;
    for (;;) {
      const filter = (after === null ? base : { ...base, _id: { $gt: after } }) as Filter<D>;
      const page = (await spec.coll.find(filter).sort({ _id: 1 }).limit(PAGE).toArray()) as D[];
      for (const d of await spec.toDocs(page)) yield d;
      if (page.length < PAGE) return;
      after = page[page.length - 1]!._id;
    }
  }
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    read,
    async write(docs) {
      if (docs.length === 0) return 0;
      let added: number;
      try {
        // deno-lint-ignore no-explicit-any
        added = (await spec.coll.insertMany(docs.map(spec.toStored) as any[], { ordered: false })).insertedCount;
      } catch (e) {
        if (!onlyDuplicates(e)) throw e;
        added = insertedOf(e);
      }
      await spec.afterWrite?.(docs);
      return added;
    },
    async count(scope) {
      const base = scoped(scope);
      if (base === null) return 0;
      if (!spec.hides) return spec.coll.countDocuments(base);
      let n = 0;
      for await (const _ of read(scope)) n++;
      return n;
    },
  };
}

const asDoc = (v: unknown) => v as TransferDoc;

/**
 * Workspaces' kinds on MongoDB (core/workspaces/transfer.ts). A bootstrap in flight (a pending
 * workspace without a roster, its pending identity) is not read, as readers do not see it. Who
 * is an owner lives in the roster (roster.ts): members are read with the role readers see; a
 * written workspace gets a first roster version, and written owners are listed in it.
 */
export function mongoWorkspaceTransfer(c: WorkspaceCollections, o: MongoStoreOptions): TransferKind[] {
  return [
    mongoKind<IdentityDoc>({
      ...K.identities,
      coll: c.identities,
      hides: true,
      async toDocs(page) {
        const out: TransferDoc[] = [];
        for (const d of page) {
          if (!(await isVisible(c, d))) continue;
          const doc: IdentityTransferDoc = { ...toIdentity(d), provider_event_at: d.provider_event_at ?? null };
          out.push(asDoc(doc));
        }
        return out;
      },
      toStored(doc) {
        const d = doc as unknown as IdentityTransferDoc;
        return { ...identityDoc(d), ...(d.provider_event_at ? { provider_event_at: d.provider_event_at } : {}) };
      },
    }),
    mongoKind<WorkspaceDoc>({
      ...K.workspaces,
      coll: c.workspaces,
      hides: true,
      async toDocs(page) {
        const pending = page.filter((d) => d.pending_since !== undefined).map((d) => d._id);
        const rosters = await latestRosters(c, pending);
        return page.filter((d) => isComplete(d, rosters.get(d._id))).map((d) => asDoc(toWorkspace(d)));
      },
      toStored(doc) {
        const w = doc as unknown as Workspace;
        return {
          _id: w.id,
          slug: w.slug,
          name: w.name,
          plan: w.plan,
          settings: { ...w.settings },
          created_at: w.created_at,
          updated_at: w.updated_at,
        };
      },
      async afterWrite(docs) {
        // The first roster version (owners listed as the members kind writes them): member
        // changes on the copy commit after it. One there already (a resumed copy) stays.
        const ids = docs.map((d) => String(d.id));
        const there = await c.workspaces.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
        for (const { _id } of there) await commitRoster(c, _id, 0, { owner_ids: [], removing: [] }, o.now());
      },
    }),
    mongoKind<MemberDoc>({
      ...K.members,
      coll: c.members,
      hides: true,
      async toDocs(page) {
        const rosters = await latestRosters(c, [...new Set(page.map((d) => d.workspace_id))]);
        return page
          .filter((d) => !rosters.get(d.workspace_id)?.removing.includes(d._id))
          .map((d) => asDoc(toMember(d, rosters.get(d.workspace_id)?.owner_ids)));
      },
      toStored(doc) {
        const m = doc as unknown as MemberDoc & { id: string };
        return {
          _id: m.id,
          workspace_id: m.workspace_id,
          identity_id: m.identity_id,
          role: m.role,
          created_at: m.created_at,
          updated_at: m.updated_at,
        };
      },
      async afterWrite(docs) {
        for (const ws of new Set(docs.filter((d) => d.role === "owner").map((d) => String(d.workspace_id)))) await listOwners(c, ws, o);
      },
    }),
    mongoKind({
      ...K.areas,
      coll: c.areas,
      toDocs: async (page) => page.map((d) => asDoc(toArea(d))),
      toStored: (doc) => areaDoc(doc as unknown as Area),
    }),
    mongoKind({
      ...K.repos,
      coll: c.repos,
      toDocs: async (page) => page.map((d) => asDoc(toRepo(d))),
      toStored: (doc) => repoDoc(doc as unknown as Repo),
    }),
  ];
}

/** Lists the workspace's members marked owner in its roster (as the member store's adoption of unlisted owners does). */
async function listOwners(c: WorkspaceCollections, workspaceId: string, o: MongoStoreOptions): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = await latestRoster(c, workspaceId);
    if (!r || r.purged) return;
    const unlisted = await c.members
      .find({ workspace_id: workspaceId, role: "owner", _id: { $nin: [...r.owner_ids, ...r.removing] } }, { projection: { _id: 1 } })
      .toArray();
    if (unlisted.length === 0) return;
    const next = { owner_ids: [...r.owner_ids, ...unlisted.map((m) => m._id)], removing: r.removing };
    if (await commitRoster(c, workspaceId, r.v, next, o.now())) return;
  }
  throw new Error(`Cannot list the owners of workspace ${workspaceId}: its roster kept changing`);
}
