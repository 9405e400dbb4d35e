import type { Topic } from "./model.ts";
import { PROPOSAL_FIELDS, type ProposalField, type ProposalPatch } from "./dto.ts";
import { sortedTags } from "./topic-change.ts";

/**
 * The pure rules of suggested edits: which fields a patch touches, what it would change, and
 * which of them conflict with what happened to the topic since the patch was written.
 */

/** The fields a patch names, in PROPOSAL_FIELDS order. */
export function touchedFields(patch: ProposalPatch): ProposalField[] {
  return PROPOSAL_FIELDS.filter((f) => Object.hasOwn(patch, f));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What RFC 7396's `null` ("remove the member") leaves in each field, since a topic always has
 * every field: lists become empty, the body empty, the kind its default, references none. The
 * title has no entry: it cannot be removed, and the patch schemas refuse a `null` title.
 */
export const REMOVED: Readonly<Record<Exclude<ProposalField, "title">, unknown>> = {
  body: "",
  tags: [],
  area_id: null,
  repo_id: null,
  anchors: [],
  kind: "note",
  source_url: null,
};

/** The value a patch gives a field, `null` read as removal (REMOVED). */
function patched(patch: ProposalPatch, f: ProposalField): unknown {
  const v = (patch as Record<string, unknown>)[f];
  if (v !== null || f === "title") return v;
  const removed = REMOVED[f];
  return Array.isArray(removed) ? [] : removed; // a fresh list: topics never share one
}

/** The fields the patch would change on `topic` (a field already at the patched value is not). */
export function changedFields(patch: ProposalPatch, topic: Topic): ProposalField[] {
  return touchedFields(patch).filter((f) => !same(patched(patch, f), topic[f as keyof Topic]));
}

/**
 * A three-way check per touched field: it conflicts when the topic's current value differs from
 * its value at the base version and also from the patched value. A field nobody changed since,
 * or that was changed to exactly what the patch says, merges cleanly. Without the base snapshot
 * (`null`: no longer in the history) every touched field not already at the patched value conflicts.
 */
export function conflictingFields(patch: ProposalPatch, base: Topic | null, current: Topic): ProposalField[] {
  return touchedFields(patch).filter((f) => {
    const now = current[f as keyof Topic];
    if (same(now, patched(patch, f))) return false;
    return base === null || !same(base[f as keyof Topic], now);
  });
}

/** The topic fields a patch sets, as a partial topic (`null` read as removal: REMOVED). */
export function patchToTopic(patch: ProposalPatch): Partial<Topic> {
  const out: Record<string, unknown> = {};
  for (const f of touchedFields(patch)) out[f] = patched(patch, f);
  return out as Partial<Topic>;
}

/** A patch as stored: tags normalised by `normalizeTags` (sorted, distinct), anchors distinct. */
export function normalizePatch(patch: ProposalPatch, normalizeTags: (raw: readonly string[]) => string[]): ProposalPatch {
  const out: Record<string, unknown> = { ...patch };
  if (Array.isArray(out.tags)) out.tags = sortedTags(normalizeTags(out.tags as string[]));
  if (Array.isArray(out.anchors)) out.anchors = [...new Set(out.anchors as string[])];
  return out as ProposalPatch;
}
