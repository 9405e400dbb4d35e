import { canonicalTransferJson, type TransferValue } from "../kernel/store-transfer.ts";
import { ARCHIVE_KIND_RULES, type ArchiveKind } from "./model.ts";
import { referencesFrom, rewriteReferences } from "./references.ts";
import { sha256Hex } from "./sha256.ts";

/**
 * What the import knows of the target workspace's objects of one kind (ADR 068): each key's
 * content hash, and which key each natural key names. Read through the kind's `lines` before any
 * line of that kind is decided; holds two strings per object of the target, never the objects.
 */
export interface TargetIndex {
  /** Line key → SHA-256 of the line's canonical JSON. */
  byKey: Map<string, string>;
  /** Natural key → line key. */
  byNatural: Map<string, string>;
}

const SEP = "\u001f";
const encoder = new TextEncoder();

/** A line's key within its kind, as one string (`ARCHIVE_KIND_RULES[kind].key`). */
export function lineKey(kind: ArchiveKind, line: Record<string, unknown>): string {
  return ARCHIVE_KIND_RULES[kind].key.map((f) => String(line[f])).join(SEP);
}

/** A line's natural key, or null when the kind has none (members: the e-mail, case-insensitive). */
export function naturalKey(kind: ArchiveKind, line: Record<string, unknown>): string | null {
  const fields = ARCHIVE_KIND_RULES[kind].natural;
  if (!fields) return null;
  if (kind === "members") return String(line.email).toLowerCase();
  return fields.map((f) => JSON.stringify(line[f] ?? null)).join(SEP);
}

/**
 * The hash two lines of a kind are compared by: canonical JSON (fields sorted, nulls dropped),
 * with references that may name a later line (`forward`: merges, a run's monitor) left out, as
 * the plan meets a line before the line such a reference names, so before knowing its target id.
 */
export function lineHash(kind: ArchiveKind, line: unknown): Promise<string> {
  const compared = referencesFrom(kind).some((r) => r.forward) ? rewriteReferences(kind, line, (r) => (r.forward ? "" : undefined)) : line;
  return sha256Hex(encoder.encode(canonicalTransferJson(compared as TransferValue)));
}

export async function indexTarget(kind: ArchiveKind, lines: AsyncIterable<unknown>): Promise<TargetIndex> {
  const index: TargetIndex = { byKey: new Map(), byNatural: new Map() };
  for await (const value of lines) {
    const line = value as Record<string, unknown>;
    const key = lineKey(kind, line);
    index.byKey.set(key, await lineHash(kind, line));
    const natural = naturalKey(kind, line);
    if (natural !== null) index.byNatural.set(natural, key);
  }
  return index;
}
