import type { Principal } from "../access/mod.ts";
import { AppError } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { ArchiveSource } from "./archive-read.ts";
import { verifyWorkspaceArchive } from "./archive-verify.ts";
import { applyImport } from "./import-apply.ts";
import { type ImportDeps, planImport } from "./import-plan.ts";
import { LEDGER_IMPORT_NOTE, type WorkspaceImportReport } from "./import-report.ts";
import type { ArchiveKindIoTable } from "./kind-io.ts";
import { ARCHIVE_KIND_IO } from "./kinds/mod.ts";
import { ARCHIVE_KINDS, type ArchiveProblem } from "./model.ts";
import { assertCanImportWorkspace } from "./policy.ts";

export interface WorkspaceImportOptions {
  dryRun: boolean;
  /** The kinds' IO (default `ARCHIVE_KIND_IO`); a kind missing from it is reported skipped. */
  io?: ArchiveKindIoTable;
  /** The most bytes the gzip may expand to (the verifier's bound). */
  maxTarBytes?: number;
}

/** 400 `IMPORT_INVALID`: the first 100 problems (file, line, path, message); nothing was written. */
export function archiveInvalid(problems: ArchiveProblem[], truncated: boolean): AppError {
  const n = problems.length;
  return new AppError(
    "IMPORT_INVALID",
    `Cannot import: the archive has ${truncated ? "at least " : ""}${n} problem${n === 1 ? "" : "s"}; nothing was written`,
    problems.map((p) => ({ path: `${p.file}${p.line === null ? "" : `:${p.line}`}${p.path}`, message: p.message })),
    { archive_problems: problems, truncated },
  );
}

/**
 * `POST /workspaces/{slug}/import` (ADR 068): an archive (ADR 065) into this workspace. Three
 * readings of the same bytes: the verifier's (everything checked, nothing written: a problem is
 * `IMPORT_INVALID`), the plan's (the id rule for every line against what the target holds), and,
 * unless a dry run, the writes'. The answer is the plan's, per kind, a dry run's alike.
 */
export async function importWorkspace(
  deps: ImportDeps,
  p: Principal,
  ws: Workspace,
  source: ArchiveSource,
  opts: WorkspaceImportOptions,
): Promise<WorkspaceImportReport> {
  assertCanImportWorkspace(p);
  const verified = await verifyWorkspaceArchive(source.open(), { maxTarBytes: opts.maxTarBytes });
  if (!verified.ok) throw archiveInvalid(verified.problems, verified.truncated);
  const manifest = verified.manifest;
  const run = { deps, principal: p, ws, io: opts.io ?? ARCHIVE_KIND_IO, now: deps.clock.now().toISOString() };
  const plan = await planImport(run, source, manifest);
  const invited = opts.dryRun ? [...(plan.create.get("members") ?? [])] : await applyImport(run, source, manifest, plan);
  return {
    dry_run: opts.dryRun,
    archive: {
      workspace: { id: manifest.workspace.id, slug: manifest.workspace.slug, name: manifest.workspace.name },
      exported_at: manifest.exported_at,
      consistency: manifest.consistency,
      service_version: manifest.service_version,
    },
    kinds: Object.fromEntries(ARCHIVE_KINDS.map((k) => [k, plan.tallies[k].report])) as WorkspaceImportReport["kinds"],
    invited,
    ledger: LEDGER_IMPORT_NOTE,
  };
}
