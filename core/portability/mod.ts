/**
 * Portability: the workspace archive, format version 1 (docs/decisions/065-workspace-archive-format.md,
 * docs/archive-format.md). Its kinds in replay order, one schema per kind's line, the references
 * between kinds as data, the streamed writer, the verifying reader and the second-pass reader,
 * and topics as Markdown. Stores nothing and calls no store: the export and import use cases
 * feed it lines and take its lines.
 */
export * from "./model.ts";
export { ARCHIVE_LINE_SCHEMAS, type ArchiveLine, CLONE_URL_WITHOUT_CREDENTIALS } from "./lines.ts";
export { ArchiveFileEntry, type ArchiveKindSummary, ArchiveManifest } from "./manifest.ts";
export * from "./references.ts";
export { type ArchivePath, dataPartPath, parseArchivePath, topicMarkdownPath } from "./archive-paths.ts";
export { lineProblems as archiveLineProblems } from "./line-check.ts";
export { cloneUrlWithoutCredentials, toArchiveLine } from "./to-line.ts";
export { topicMarkdown } from "./topic-markdown.ts";
export { type ArchiveContents, type ArchiveLineSources, type ArchiveWriteOptions, writeWorkspaceArchive } from "./archive-writer.ts";
export { ARCHIVE_MAX_TAR_BYTES, type ArchiveReadOptions, type ArchiveVerification, verifyWorkspaceArchive } from "./archive-verify.ts";
export { ArchiveChangedError, type ArchiveRecord, type ArchiveSource, readWorkspaceArchive } from "./archive-read.ts";
export { exportWorkspace, type WorkspaceExport, type WorkspaceExportOptions } from "./export.ts";
export { archiveInvalid, importWorkspace, type WorkspaceImportOptions } from "./import.ts";
export { type ImportDeps, REASONS as IMPORT_REASONS } from "./import-plan.ts";
export { ImportKindReport, LEDGER_IMPORT_NOTE, WorkspaceImportReport } from "./import-report.ts";
export { importedId } from "./imported-id.ts";
export type { ArchiveDoc, ArchiveImportContext, ArchiveKindIo, ArchiveKindIoTable, ArchiveStores } from "./kind-io.ts";
export { ARCHIVE_KIND_IO } from "./kinds/mod.ts";
export { assertCanExportWorkspace, assertCanImportWorkspace } from "./policy.ts";
