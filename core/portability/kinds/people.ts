import type { StoreTransfer, TransferDoc } from "../../kernel/store-transfer.ts";
import { type Area, type Repo, WORKSPACE_TRANSFER_KINDS } from "../../workspaces/mod.ts";
import type { ArchiveKindIoTable } from "../kind-io.ts";
import { toArchiveLine } from "../to-line.ts";

const K = WORKSPACE_TRANSFER_KINDS;
/** Members are read through the member store's pages (they carry the person's e-mail and name). */
const MEMBER_PAGE = 200;

/** A tenant kind's documents of one workspace, in key order, as stored objects of type `T`. */
async function* stored<T>(stores: { transfer: StoreTransfer }, kind: string, workspaceId: string): AsyncIterable<T> {
  const k = stores.transfer.kinds.find((x) => x.name === kind);
  if (!k) return;
  for await (const doc of k.read({ workspaceId })) yield doc as unknown as T;
}

const doc = (v: object) => v as TransferDoc;

/**
 * The archive kinds of the workspaces module (ADR 067): the workspace line, its members (the
 * membership with the person's e-mail and name), areas and repos (clone URLs without credentials,
 * `toArchiveLine`).
 */
export const peopleKindIo: ArchiveKindIoTable = {
  workspace: {
    async *lines(stores, workspaceId) {
      const ws = await stores.workspaces.getById(workspaceId);
      if (ws) yield toArchiveLine.workspace(ws);
    },
    // An import goes into a workspace that exists (the target's slug, name, plan and settings
    // stay its own): the line is read and checked, nothing is written for it.
    toDocs: () => [],
  },
  members: {
    async *lines(stores, workspaceId) {
      for (let offset = 0;; offset += MEMBER_PAGE) {
        const page = await stores.members.list(workspaceId, { offset, limit: MEMBER_PAGE });
        for (const m of page.items) yield toArchiveLine.members(m);
        if (page.items.length < MEMBER_PAGE) return;
      }
    },
    // `identity_id` is already the target's person with that e-mail when it has one (the import's
    // `person` rule); otherwise the person is written too, as of the import (its own time).
    toDocs: (line, ctx) => [
      {
        kind: K.identities.name,
        doc: doc({ id: line.identity_id, email: line.email, name: line.name, created_at: ctx.now, provider_event_at: null }),
      },
      {
        kind: K.members.name,
        doc: doc({
          id: line.id,
          workspace_id: ctx.workspaceId,
          identity_id: line.identity_id,
          role: line.role,
          created_at: line.created_at,
          updated_at: line.updated_at,
        }),
      },
    ],
  },
  areas: {
    async *lines(stores, workspaceId) {
      for await (const a of stored<Area>(stores, K.areas.name, workspaceId)) yield toArchiveLine.areas(a);
    },
    toDocs: (l, ctx) => [
      {
        kind: K.areas.name,
        doc: doc({
          id: l.id,
          workspace_id: ctx.workspaceId,
          name: l.name,
          description: l.description,
          created_at: l.created_at,
          updated_at: l.updated_at,
        }),
      },
    ],
  },
  repos: {
    async *lines(stores, workspaceId) {
      for await (const r of stored<Repo>(stores, K.repos.name, workspaceId)) yield toArchiveLine.repos(r);
    },
    toDocs: (l, ctx) => [
      {
        kind: K.repos.name,
        doc: doc({
          id: l.id,
          workspace_id: ctx.workspaceId,
          provider: l.provider,
          full_name: l.full_name,
          default_branch: l.default_branch,
          clone_url: l.clone_url,
          created_at: l.created_at,
        }),
      },
    ],
  },
};
