import type { TransferDoc, TransferKind, TransferScope } from "../../../core/kernel/store-transfer.ts";
import { type IdentityTransferDoc, WORKSPACE_TRANSFER_KINDS as K } from "../../../core/workspaces/transfer.ts";
import type { Area, Member, Repo, Workspace } from "../../../core/workspaces/model.ts";
import { copy } from "../rows.ts";
import type { WorkspaceTables } from "./tables.ts";

interface KindSpec<T> {
  name: string;
  tenant: boolean;
  key: readonly string[];
}

/**
 * A memory kind over one table: reads a sorted snapshot of its rows (by id; a tenant kind's by
 * workspace, then id), writes each document `add` accepts (false: its key or a unique value is
 * taken, left alone). Shared by the memory adapter's modules of this group (access too).
 */
export function memoryKind<T extends { id: string }>(
  spec: KindSpec<T>,
  rows: () => Iterable<T>,
  toDoc: (row: T) => TransferDoc,
  add: (doc: TransferDoc) => boolean,
): TransferKind {
  const select = (scope?: TransferScope): T[] => {
    const all = [...rows()].filter((r) =>
      scope?.workspaceId === undefined ? true : spec.tenant && (r as unknown as { workspace_id: string }).workspace_id === scope.workspaceId
    );
    const ws = (r: T) => (spec.tenant ? (r as unknown as { workspace_id: string }).workspace_id : "");
    return all.sort((a, b) => (ws(a) < ws(b) ? -1 : ws(a) > ws(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    async *read(scope) {
      for (const r of select(scope)) yield toDoc(copy(r));
    },
    async write(docs) {
      let added = 0;
      for (const d of docs) if (add(copy(d))) added++;
      return added;
    },
    async count(scope) {
      return select(scope).length;
    },
  };
}

const asDoc = <T>(row: T) => row as unknown as TransferDoc;
const isoOrNull = (v: string | undefined) => (v === undefined ? null : new Date(v).toISOString());

/** Workspaces' kinds over the memory tables (core/workspaces/transfer.ts). */
export function memoryWorkspaceTransfer(t: WorkspaceTables): TransferKind[] {
  return [
    memoryKind(K.identities, () => t.identities.values(), (i): TransferDoc => {
      const doc: IdentityTransferDoc = { ...i, provider_event_at: isoOrNull(t.identityEventAt.get(i.id)) };
      return asDoc(doc);
    }, (d) => {
      const { provider_event_at, ...identity } = d as unknown as IdentityTransferDoc;
      if (t.identities.has(identity.id) || t.identityIdByEmail.has(identity.email)) return false;
      t.identities.set(identity.id, identity);
      t.identityIdByEmail.set(identity.email, identity.id);
      if (provider_event_at) t.identityEventAt.set(identity.id, provider_event_at);
      return true;
    }),
    memoryKind(K.workspaces, () => t.workspaces.values(), asDoc, (d) => {
      const w = d as unknown as Workspace;
      if (t.workspaces.has(w.id) || t.workspaceIdBySlug.has(w.slug)) return false;
      t.workspaces.set(w.id, w);
      t.workspaceIdBySlug.set(w.slug, w.id);
      return true;
    }),
    memoryKind(K.members, () => t.members.values(), asDoc, (d) => {
      const m = d as unknown as Member;
      if (t.members.has(m.id)) return false;
      for (const x of t.members.values()) if (x.workspace_id === m.workspace_id && x.identity_id === m.identity_id) return false;
      t.members.set(m.id, m);
      return true;
    }),
    memoryKind(K.areas, () => t.areas.values(), asDoc, (d) => {
      const a = d as unknown as Area;
      if (t.areas.has(a.id)) return false;
      for (const x of t.areas.values()) if (x.workspace_id === a.workspace_id && x.name === a.name) return false;
      t.areas.set(a.id, a);
      return true;
    }),
    memoryKind(K.repos, () => t.repos.values(), asDoc, (d) => {
      const r = d as unknown as Repo;
      if (t.repos.has(r.id)) return false;
      for (const x of t.repos.values()) {
        if (x.workspace_id === r.workspace_id && x.provider === r.provider && x.full_name === r.full_name) return false;
      }
      t.repos.set(r.id, r);
      return true;
    }),
  ];
}
