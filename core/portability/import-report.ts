import { type Static, Type } from "@sinclair/typebox";
import { ARCHIVE_CONSISTENCY, ARCHIVE_KINDS, type ArchiveKind } from "./model.ts";

/**
 * What a workspace import answers, a dry run too (ADR 068): per kind of the archive, how many
 * lines were created, updated, unchanged or skipped, and why those skipped were.
 */
export const IMPORT_OUTCOMES = ["created", "updated", "unchanged", "skipped"] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** The one sentence the answer gives about credits: the ledger arrives as history, the balance stays (issue #25). */
export const LEDGER_IMPORT_NOTE = "history only: balance untouched";

/** How many keys a reason lists as examples. */
export const REASON_EXAMPLES = 10;

const Count = Type.Integer({ minimum: 0 });

export const ImportReason = Type.Object({
  outcome: Type.Union(IMPORT_OUTCOMES.map((o) => Type.Literal(o))),
  reason: Type.String({ description: "Why, in words (e.g. `the target holds another version`)." }),
  count: Count,
  keys: Type.Array(Type.String(), { description: `The first ${REASON_EXAMPLES} lines' keys (ids, names, e-mails).` }),
});
export type ImportReason = Static<typeof ImportReason>;

export const ImportKindReport = Type.Object({
  created: Count,
  updated: Count,
  unchanged: Count,
  skipped: Count,
  reasons: Type.Array(ImportReason),
});
export type ImportKindReport = Static<typeof ImportKindReport>;

export const WorkspaceImportReport = Type.Object({
  dry_run: Type.Boolean(),
  archive: Type.Object({
    workspace: Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }),
    exported_at: Type.String(),
    consistency: Type.Union(ARCHIVE_CONSISTENCY.map((c) => Type.Literal(c))),
    service_version: Type.String(),
  }, { description: "What the manifest says of the archive." }),
  kinds: Type.Object(
    Object.fromEntries(ARCHIVE_KINDS.map((k) => [k, ImportKindReport])) as Record<ArchiveKind, typeof ImportKindReport>,
    { description: "Every kind of the format, in replay order; a kind the archive has no line of counts zeros." },
  ),
  invited: Type.Array(Type.String(), {
    description: "E-mails of the archive's members who were not members here: invited (the member add, its mail), never given a key.",
  }),
  ledger: Type.Literal(LEDGER_IMPORT_NOTE, {
    description:
      "The credit ledger is imported as history only: the target's balance is untouched; only the platform operator grants credits.",
  }),
});
export type WorkspaceImportReport = Static<typeof WorkspaceImportReport>;

/** Counts one kind's outcomes as the plan decides them. */
export class KindTally {
  readonly report: ImportKindReport = { created: 0, updated: 0, unchanged: 0, skipped: 0, reasons: [] };

  add(outcome: ImportOutcome, key: string, reason?: string): void {
    this.report[outcome]++;
    if (!reason) return;
    let r = this.report.reasons.find((x) => x.outcome === outcome && x.reason === reason);
    if (!r) this.report.reasons.push(r = { outcome, reason, count: 0, keys: [] });
    r.count++;
    if (r.keys.length < REASON_EXAMPLES) r.keys.push(key);
  }
}
