import type { ArchiveFile } from "../kernel/archive-entries.ts";
import { MAX_RELATIONS_PER_TOPIC } from "./relations.ts";
import { isMarkdownPath, readMarkdownNote } from "./markdown-note.ts";
import { extractLinks, NoteIndex } from "./markdown-links.ts";
import { type SettledNote, settleVault, type VaultNote, type VaultProblem } from "./markdown-vault.ts";
import { TOPIC_IMPORT_LIMITS } from "./markdown-import-dto.ts";

/**
 * An archive's files sorted out for an import, before any store is read: what is skipped and why,
 * each Markdown file as a settled note with the files it links to, and every problem found.
 * Pure. docs/decisions/064-markdown-import.md.
 */

export interface LinkedNote extends SettledNote {
  /** Paths of the archive's Markdown files this one links to (itself excluded), each once, in order of appearance. */
  targets: string[];
  unresolved: string[];
}

export interface SortedFiles {
  /** Every file in the archive's order: a note's path, or a skipped file with its reason. */
  order: Array<{ path: string; skipped: string | null }>;
  notes: Map<string, LinkedNote>;
  problems: VaultProblem[];
}

/**
 * Hidden files and folders (`.obsidian/`, `.trash/`, `.DS_Store`) and macOS's `__MACOSX/` are an
 * editor's or an archiver's, not notes.
 */
export function hiddenReason(path: string): string | null {
  const segment = path.split("/").find((s) => s.startsWith(".") || s === "__MACOSX");
  return segment === undefined ? null : `hidden (${segment})`;
}

/** Whether the import reads a file's bytes: Markdown that is not hidden. */
export function wantsFile(path: string): boolean {
  return isMarkdownPath(path) && hiddenReason(path) === null;
}

const looksLikeNote = (target: string) => isMarkdownPath(target) || !/\.[a-z0-9]{1,8}$/i.test(target);

export function sortFiles(files: readonly ArchiveFile[]): SortedFiles {
  const order: SortedFiles["order"] = [];
  const read: VaultNote[] = [];
  const problems: VaultProblem[] = [];
  for (const f of files) {
    const hidden = hiddenReason(f.path);
    if (hidden !== null) order.push({ path: f.path, skipped: hidden });
    else if (!isMarkdownPath(f.path) || f.bytes === null) order.push({ path: f.path, skipped: "not Markdown (.md or .markdown)" });
    else {
      order.push({ path: f.path, skipped: null });
      const { note, problems: found } = readMarkdownNote(f.path, f.bytes);
      for (const p of found) problems.push({ path: f.path, ...p });
      if (note) read.push({ path: f.path, note });
    }
  }
  // Two entries of one path (a tar may hold both): the later would silently win; refuse instead.
  const seen = new Set<string>();
  for (const { path, skipped } of order) {
    if (skipped === null && seen.has(path)) problems.push({ path, field: "path", message: "the archive holds this path twice" });
    seen.add(path);
  }

  const settled = settleVault(read);
  problems.push(...settled.problems);
  const index = new NoteIndex(settled.notes.map((n) => n.path));
  const notes = new Map<string, LinkedNote>();
  for (const n of settled.notes) {
    const targets: string[] = [];
    const unresolved: string[] = [];
    for (const link of extractLinks(n.body)) {
      const target = index.resolve(n.path, link);
      if (target === null) {
        // A link to an image or another file is not a note's; one that names a note the archive lacks is said.
        if (looksLikeNote(link.target) && !unresolved.includes(link.target)) unresolved.push(link.target);
      } else if (target !== n.path && !targets.includes(target)) targets.push(target);
    }
    if (targets.length > MAX_RELATIONS_PER_TOPIC) {
      problems.push({
        path: n.path,
        field: "links",
        message: `links to ${targets.length} files: a topic takes at most ${MAX_RELATIONS_PER_TOPIC} relations`,
      });
    }
    notes.set(n.path, { ...n, targets, unresolved: unresolved.slice(0, TOPIC_IMPORT_LIMITS.maxUnresolvedListed) });
  }
  return { order, notes, problems };
}
