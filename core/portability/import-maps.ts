import type { ArchiveKind } from "./model.ts";
import { entityFieldsOf, type ReferenceContext, rewriteReferences } from "./references.ts";

/**
 * What the import has learnt while planning (ADR 068): the archive ids it does not keep and the
 * target's id for each, each archive person's identity on the target (matched by e-mail), and
 * which record fields of each collection hold entity ids. The plan fills it, the write pass reads
 * it. Only ids that change are held: an id kept maps to itself.
 */
export class ImportMaps implements ReferenceContext {
  private readonly ids = new Map<ArchiveKind, Map<string, string>>();
  /** Archive identity id → target identity id (null: no one here yet, a dry run's invitee). */
  readonly people = new Map<string, string | null>();
  private readonly entityFieldsByCollection = new Map<string, Set<string>>();

  mapId(kind: ArchiveKind, from: string, to: string): void {
    if (from === to) return;
    let m = this.ids.get(kind);
    if (!m) this.ids.set(kind, m = new Map());
    m.set(from, to);
  }

  idOf(kind: ArchiveKind, id: string): string {
    return this.ids.get(kind)?.get(id) ?? id;
  }

  /** A collection's entity fields, under its archive id and its target id (references are read under either). */
  noteCollection(archiveId: string, targetId: string, recordSchema: unknown): void {
    const fields = entityFieldsOf((recordSchema ?? {}) as { fields?: Record<string, unknown> });
    this.entityFieldsByCollection.set(archiveId, fields);
    this.entityFieldsByCollection.set(targetId, fields);
  }

  entityFields(collectionId: string): ReadonlySet<string> | undefined {
    return this.entityFieldsByCollection.get(collectionId);
  }

  /**
   * A copy of `line` with every reference the target's way: ids through the maps (a `history`
   * reference to an object the archive does not hold stays as it is), people through their
   * e-mail (null for anyone the archive has no member for).
   */
  rewrite<T>(kind: ArchiveKind, line: T): T {
    return rewriteReferences(kind, line, (ref, value) => {
      if (ref.rule === "person") return this.people.get(value) ?? null;
      if (ref.field !== "id") return undefined;
      return this.ids.get(ref.to)?.get(value);
    }, this);
  }
}
