import type { ArchiveKind } from "./model.ts";

/**
 * Which field of which kind names which object of which kind, as data: the reader checks them,
 * the import remaps them (an object whose id is taken gets another, and every reference to it
 * follows). docs/decisions/065-workspace-archive-format.md, "Ids and references".
 *
 * Rules:
 * - `required`: names an object of the archive (a problem otherwise);
 * - `optional`: null, or names an object of the archive;
 * - `history`: may name an object the workspace no longer has (a deleted topic's events, a
 *   purged collection's searches, an old slug): remapped when it names one, else kept as it is;
 * - `person`: an identity id; the import maps it to the target's identity of the member with the
 *   same e-mail, and writes null for anyone the archive has no member for (an archive carries no
 *   person who is not a member).
 */
export const REFERENCE_RULES = ["required", "optional", "history", "person"] as const;
export type ReferenceRule = (typeof REFERENCE_RULES)[number];

export interface ArchiveReference {
  /** The kind whose lines hold the reference. */
  from: ArchiveKind;
  /**
   * Where in the line: fields joined by `.`, `[]` after a field for each element of its list,
   * `*` for each value of an object (`fields.*`: every record value).
   */
  path: string;
  /** The kind named, and its field the value is (`id`, or `name` for tags, `slug` for topics…). */
  to: ArchiveKind;
  field: string;
  rule: ReferenceRule;
  /** Names an object of a later line (of the same or a later kind): checked at the end. */
  forward?: true;
  /** Only where the object holding the value has `field` equal to `equals` (a diff entry's `path`). */
  when?: { field: string; equals: string };
  /** Records only: only the values of fields the collection declares of type `entity` (or a list of them). */
  declared?: "entity";
}

const person = (from: ArchiveKind, ...paths: string[]): ArchiveReference[] =>
  paths.map((path) => ({ from, path, to: "members", field: "identity_id", rule: "person" }));
const topicRefs = (from: ArchiveKind, at: string, rule: "current" | "history"): ArchiveReference[] => {
  const r = (level: ReferenceRule): ReferenceRule => (rule === "history" ? "history" : level);
  return [
    ...(at ? [{ from, path: `${at}id`, to: "topics", field: "id", rule: "history" } as const] : []),
    { from, path: `${at}area_id`, to: "areas", field: "id", rule: r("optional") },
    { from, path: `${at}repo_id`, to: "repos", field: "id", rule: r("optional") },
    { from, path: `${at}tags[]`, to: "tags", field: "name", rule: r("required") },
    // A merge's other end may be deleted later: history on the live topic too.
    { from, path: `${at}merged_into`, to: "topics", field: "id", rule: "history", forward: true },
    { from, path: `${at}merged_from[]`, to: "topics", field: "id", rule: "history", forward: true },
    ...person(from, `${at}owner_id`, `${at}author_id`, `${at}governance.approved_by`),
  ];
};

export const ARCHIVE_REFERENCES: readonly ArchiveReference[] = [
  ...topicRefs("topics", "", "current"),
  { from: "topic_redirects", path: "topic_id", to: "topics", field: "id", rule: "required" },
  { from: "topic_history", path: "topic_id", to: "topics", field: "id", rule: "history" },
  { from: "topic_history", path: "repo_id", to: "repos", field: "id", rule: "history" },
  ...person("topic_history", "actor_id"),
  ...topicRefs("topic_history", "snapshot.", "history"),
  { from: "proposals", path: "topic_id", to: "topics", field: "id", rule: "required" },
  { from: "proposals", path: "patch.area_id", to: "areas", field: "id", rule: "history" },
  { from: "proposals", path: "patch.repo_id", to: "repos", field: "id", rule: "history" },
  ...person("proposals", "author_id", "decided_by"),
  { from: "relations", path: "from_topic_id", to: "topics", field: "id", rule: "required" },
  { from: "relations", path: "to_topic_id", to: "topics", field: "id", rule: "required" },
  ...person("relations", "created_by"),
  { from: "share_links", path: "topic_id", to: "topics", field: "id", rule: "required" },
  ...person("share_links", "created_by"),
  { from: "collections", path: "criterion_rel_slugs[]", to: "topics", field: "slug", rule: "history" },
  ...person("collections", "owner_identity_id", "created_by"),
  { from: "records", path: "collection_id", to: "collections", field: "id", rule: "required" },
  { from: "records", path: "entity_id", to: "entities", field: "id", rule: "optional" },
  { from: "records", path: "fields.*", to: "entities", field: "id", rule: "history", declared: "entity" },
  ...person("records", "created_by", "updated_by"),
  { from: "record_history", path: "collection_id", to: "collections", field: "id", rule: "required" },
  { from: "record_history", path: "record_id", to: "records", field: "id", rule: "required" },
  {
    from: "record_history",
    path: "diff[].before",
    to: "entities",
    field: "id",
    rule: "history",
    when: { field: "path", equals: "entity_id" },
  },
  {
    from: "record_history",
    path: "diff[].after",
    to: "entities",
    field: "id",
    rule: "history",
    when: { field: "path", equals: "entity_id" },
  },
  ...person("record_history", "actor_id"),
  // Ledger lines come in `seq` order, so a capture's or release's hold is an earlier line.
  { from: "credit_ledger", path: "hold_id", to: "credit_ledger", field: "id", rule: "optional" },
  { from: "credit_ledger", path: "run_id", to: "radar_runs", field: "id", rule: "history", forward: true },
  { from: "credit_ledger", path: "record_id", to: "records", field: "id", rule: "history" },
  { from: "radar_criteria", path: "topic_id", to: "topics", field: "id", rule: "required" },
  { from: "radar_searches", path: "collection_id", to: "collections", field: "id", rule: "history" },
  { from: "radar_searches", path: "criterion_slug", to: "topics", field: "slug", rule: "history" },
  ...person("radar_searches", "created_by"),
  { from: "radar_runs", path: "search_id", to: "radar_searches", field: "id", rule: "required" },
  { from: "radar_runs", path: "collection_id", to: "collections", field: "id", rule: "history" },
  { from: "radar_runs", path: "criterion_slug", to: "topics", field: "slug", rule: "history" },
  { from: "radar_runs", path: "monitor_id", to: "radar_monitors", field: "id", rule: "optional", forward: true },
  { from: "radar_runs", path: "hold_id", to: "credit_ledger", field: "id", rule: "optional" },
  ...person("radar_runs", "actor_id"),
  { from: "radar_run_trace", path: "run_id", to: "radar_runs", field: "id", rule: "required" },
  { from: "radar_run_results", path: "run_id", to: "radar_runs", field: "id", rule: "required" },
  { from: "radar_run_results", path: "entity_id", to: "entities", field: "id", rule: "required" },
  { from: "radar_run_results", path: "record_id", to: "records", field: "id", rule: "history" },
  { from: "radar_monitors", path: "search_id", to: "radar_searches", field: "id", rule: "required" },
  { from: "radar_monitors", path: "first_run_id", to: "radar_runs", field: "id", rule: "required" },
  { from: "radar_monitors", path: "last_run_id", to: "radar_runs", field: "id", rule: "optional" },
  { from: "contact_unlocks", path: "entity_id", to: "entities", field: "id", rule: "required" },
];

const byKind = new Map<ArchiveKind, ArchiveReference[]>();
for (const ref of ARCHIVE_REFERENCES) byKind.set(ref.from, [...(byKind.get(ref.from) ?? []), ref]);

/** The references a kind's lines hold. */
export function referencesFrom(kind: ArchiveKind): readonly ArchiveReference[] {
  return byKind.get(kind) ?? [];
}

/** What a line's references depend on beyond the line: which record fields hold entity ids. */
export interface ReferenceContext {
  /** The fields of collection `collectionId` declared `entity` or a list of `entity`. */
  entityFields(collectionId: string): ReadonlySet<string> | undefined;
}

/** The names of a record schema's fields that hold entity ids (type `entity`, or a list of them). */
export function entityFieldsOf(recordSchema: { fields?: Record<string, unknown> }): Set<string> {
  const names = new Set<string>();
  for (const [name, def] of Object.entries(recordSchema.fields ?? {})) {
    const d = def as { type?: string; items?: { type?: string } };
    if (d.type === "entity" || (d.type === "list" && d.items?.type === "entity")) names.add(name);
  }
  return names;
}

/** One place a reference sits: the object holding it and its key there. */
interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  pointer: string;
}

const escape = (key: string | number) => String(key).replaceAll("~", "~0").replaceAll("/", "~1");

function* slots(line: Record<string, unknown>, ref: ArchiveReference, ctx?: ReferenceContext): Generator<Slot> {
  const segments = ref.path.split(".").flatMap((s) => (s.endsWith("[]") ? [s.slice(0, -2), "[]"] : [s]));
  let declared: ReadonlySet<string> | undefined;
  if (ref.declared === "entity") {
    declared = typeof line.collection_id === "string" ? ctx?.entityFields(line.collection_id) : undefined;
    if (!declared?.size) return;
  }
  yield* walk(line, segments, 0, "", ref, declared);
}

function* walk(
  holder: unknown,
  segments: string[],
  at: number,
  pointer: string,
  ref: ArchiveReference,
  declared: ReadonlySet<string> | undefined,
): Generator<Slot> {
  if (holder === null || typeof holder !== "object") return;
  const seg = segments[at]!;
  const last = at === segments.length - 1;
  const keys: (string | number)[] = seg === "[]"
    ? (Array.isArray(holder) ? holder.map((_, i) => i) : [])
    : seg === "*"
    ? (Array.isArray(holder) ? [] : Object.keys(holder).filter((k) => !declared || declared.has(k)))
    : Array.isArray(holder) || !Object.hasOwn(holder, seg)
    ? []
    : [seg];
  for (const key of keys) {
    const here = `${pointer}/${escape(key)}`;
    const value = (holder as Record<string | number, unknown>)[key];
    if (!last) {
      yield* walk(value, segments, at + 1, here, ref, declared);
      continue;
    }
    if (ref.when && (holder as Record<string, unknown>)[ref.when.field] !== ref.when.equals) continue;
    // A declared entity field holds one id, or a list of them.
    if (declared && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) yield { holder: value, key: i, pointer: `${here}/${i}` };
    } else yield { holder: holder as Record<string, unknown>, key, pointer: here };
  }
}

/** A reference found in a line: where, and the value it names (never null: a null names nothing). */
export interface FoundReference {
  ref: ArchiveReference;
  pointer: string;
  value: string;
}

/** Every non-null reference of a line of `kind`. A value that is not a string is left to the schema. */
export function referencesIn(kind: ArchiveKind, line: unknown, ctx?: ReferenceContext): FoundReference[] {
  if (line === null || typeof line !== "object") return [];
  const found: FoundReference[] = [];
  for (const ref of referencesFrom(kind)) {
    for (const s of slots(line as Record<string, unknown>, ref, ctx)) {
      const value = (s.holder as Record<string | number, unknown>)[s.key];
      if (typeof value === "string") found.push({ ref, pointer: s.pointer, value });
    }
  }
  return found;
}

/**
 * A copy of `line` with every reference passed through `map`: it answers the new value, null
 * (a `person` with no member), or undefined to keep the value: how an import remaps ids.
 */
export function rewriteReferences<T>(
  kind: ArchiveKind,
  line: T,
  map: (ref: ArchiveReference, value: string) => string | null | undefined,
  ctx?: ReferenceContext,
): T {
  const copy = structuredClone(line) as Record<string, unknown>;
  for (const ref of referencesFrom(kind)) {
    for (const s of [...slots(copy, ref, ctx)]) {
      const holder = s.holder as Record<string | number, unknown>;
      const value = holder[s.key];
      if (typeof value !== "string") continue;
      const next = map(ref, value);
      if (next !== undefined) holder[s.key] = next;
    }
  }
  return copy as T;
}
