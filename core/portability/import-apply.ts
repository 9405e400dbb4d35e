import { TRANSFER_WRITE_BATCH, type TransferKind } from "../kernel/store-transfer.ts";
import { addMember, type Role } from "../workspaces/mod.ts";
import { type ArchiveSource, readWorkspaceArchive } from "./archive-read.ts";
import type { ImportPlan, ImportRun } from "./import-plan.ts";
import { lineKey } from "./import-target.ts";
import type { ArchiveDoc, ArchiveImportContext } from "./kind-io.ts";
import type { ArchiveManifest } from "./manifest.ts";
import { ARCHIVE_KIND_RULES, type ArchiveKind } from "./model.ts";

/**
 * The write pass (ADR 068): the archive's third reading, after the plan. Each line the plan
 * decided `created` is rewritten through the plan's maps (forward references included: the maps
 * are whole now) and written through its kind's `toDocs` and the stores' transfer kinds, in
 * batches of at most 500 documents. A missing member is invited through the member add (its
 * event, its mail), never given a key. Transfer writes skip keys the store holds, and new ids
 * are kept or derived, never drawn: a run stopped anywhere (a lost client, a killed server) is
 * completed by running the same import again. Answers the e-mails invited.
 */
export async function applyImport(run: ImportRun, source: ArchiveSource, manifest: ArchiveManifest, plan: ImportPlan): Promise<string[]> {
  const invited: string[] = [];
  const kinds = new Map(run.deps.stores.transfer.kinds.map((k) => [k.name, k]));
  const ctx: ArchiveImportContext = { workspaceId: run.ws.id, now: run.now };
  let batch: ArchiveDoc[] = [];
  const flush = async () => {
    if (batch.length) await writeDocs(kinds, batch);
    batch = [];
  };
  let current: ArchiveKind | null = null;
  for await (const rec of readWorkspaceArchive(source.open(), manifest)) {
    const kind = rec.kind;
    const raw = rec.value as unknown as Record<string, unknown>;
    if (kind !== current) {
      await flush();
      current = kind;
    }
    const create = plan.create.get(kind);
    if (!create) continue;
    if (kind === "members") {
      const email = String(raw.email).toLowerCase();
      if (!create.has(email)) continue;
      const added = await addMember(run.deps, run.principal, run.ws, {
        email,
        name: (raw.name as string | null) ?? undefined,
        role: raw.role as Role,
      });
      plan.maps.people.set(String(raw.identity_id), added.identity_id);
      invited.push(email);
      continue;
    }
    const io = run.io[kind];
    if (!io || !create.has(lineKey(kind, raw))) continue;
    const line = plan.maps.rewrite(kind, raw);
    if (ARCHIVE_KIND_RULES[kind].remappable) line.id = plan.maps.idOf(kind, raw.id as string);
    // deno-lint-ignore no-explicit-any
    batch.push(...io.toDocs(line as any, ctx));
    if (batch.length >= TRANSFER_WRITE_BATCH) await flush();
  }
  await flush();
  return invited;
}

/** Documents in their order: grouped by transfer kind in the order each first appears, at most a batch per write. */
async function writeDocs(kinds: Map<string, TransferKind>, docs: ArchiveDoc[]): Promise<void> {
  const groups = new Map<string, ArchiveDoc["doc"][]>();
  for (const d of docs) {
    let g = groups.get(d.kind);
    if (!g) groups.set(d.kind, g = []);
    g.push(d.doc);
  }
  for (const [name, group] of groups) {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`Cannot import: the stores have no transfer kind ${name}`);
    for (let i = 0; i < group.length; i += TRANSFER_WRITE_BATCH) await kind.write(group.slice(i, i + TRANSFER_WRITE_BATCH));
  }
}
