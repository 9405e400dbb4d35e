/**
 * The workspace archive, format version 1 (docs/decisions/065-workspace-archive-format.md,
 * docs/archive-format.md): its constants, its kinds in replay order and what identifies a line of
 * each. Data, so the writer, the reader, the import and the documentation read the same list.
 */

/** What `manifest.json` names the format; a reader refuses any other. */
export const ARCHIVE_FORMAT = "wks-workspace-archive";
export const ARCHIVE_FORMAT_VERSION = 1;
export const ARCHIVE_MANIFEST_PATH = "manifest.json";

/**
 * A data part holds whole lines and at most this many bytes; a line longer than this is refused
 * (by the writer and the reader). Tar needs each entry's size before its bytes, and core has no
 * file system to spool to: a part is the unit both sides hold in memory at once.
 */
export const ARCHIVE_PART_BYTES = 8 * 1024 * 1024;
/** A topic's Markdown file: far above the largest topic (a 200,000-character body). */
export const ARCHIVE_MAX_MARKDOWN_BYTES = 8 * 1024 * 1024;
/** The manifest lists every file with its hash: 64 MiB holds some 400,000 files. */
export const ARCHIVE_MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** A reader stops at this many problems and reports them. */
export const ARCHIVE_MAX_PROBLEMS = 100;
/** Parts of one kind are numbered 0001 … 9999 (78 GiB of one kind, far past any import limit). */
export const ARCHIVE_MAX_PARTS = 9999;

/**
 * The kinds, in the order an import replays them: a kind comes after every kind it references,
 * except the references marked `forward` in references.ts. Data files appear in the archive in
 * this order, parts of a kind in their number order.
 */
export const ARCHIVE_KINDS = [
  "workspace",
  "members",
  "areas",
  "repos",
  "tags",
  "topics",
  "topic_redirects",
  "topic_history",
  "proposals",
  "relations",
  "share_links",
  "collections",
  "entities",
  "records",
  "record_history",
  "credit_ledger",
  "radar_criteria",
  "radar_searches",
  "radar_runs",
  "radar_run_trace",
  "radar_run_results",
  "radar_monitors",
  "contact_unlocks",
] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

export interface ArchiveKindRule {
  /** The fields whose values identify a line within the archive (unique per kind). */
  key: readonly string[];
  /**
   * What makes a line the same object as one the target already holds under another id (the
   * import then takes the target's id, and every reference follows), or null when only the key
   * matches. Fields of the line; `members` match by e-mail.
   */
  natural: readonly string[] | null;
  /** Whether the key is a generated id the import may replace (a UUID in field `id`). */
  remappable: boolean;
  /** One sentence for the documentation. */
  about: string;
}

export const ARCHIVE_KIND_RULES: Readonly<Record<ArchiveKind, ArchiveKindRule>> = {
  workspace: { key: ["id"], natural: null, remappable: false, about: "The workspace: one line (name, plan, settings)." },
  members: { key: ["id"], natural: ["email"], remappable: true, about: "Members: e-mail, name and role; never a key." },
  areas: { key: ["id"], natural: ["name"], remappable: true, about: "Areas." },
  repos: {
    key: ["id"],
    natural: ["provider", "full_name"],
    remappable: true,
    about: "Linked repos, their clone URL without user or password.",
  },
  tags: { key: ["name"], natural: null, remappable: false, about: "Tags (normalised names) and their descriptions." },
  topics: { key: ["id"], natural: ["slug"], remappable: true, about: "Topics as stored: text, governance, drift, merges." },
  topic_redirects: { key: ["slug"], natural: null, remappable: false, about: "Old slugs of moved or merged topics." },
  topic_history: {
    key: ["id"],
    natural: ["topic_id", "version"],
    remappable: true,
    about: "Every change of every topic, with the topic as the change left it (`snapshot`, null once the topic was deleted).",
  },
  proposals: { key: ["id"], natural: null, remappable: true, about: "Suggested edits, open and decided." },
  relations: { key: ["id"], natural: ["from_topic_id", "to_topic_id", "type"], remappable: true, about: "Typed relations between topics." },
  share_links: {
    key: ["id"],
    natural: null,
    remappable: true,
    about: "Public links: the SHA-256 of an active link's token (never the token), revoked ones as revoked.",
  },
  collections: { key: ["id"], natural: null, remappable: true, about: "Collections with their schema, views and settings." },
  entities: { key: ["id"], natural: ["kind", "dedup_key"], remappable: true, about: "Entities shared by collections." },
  records: { key: ["id"], natural: null, remappable: true, about: "Records of every collection." },
  record_history: {
    key: ["id"],
    natural: ["record_id", "version"],
    remappable: true,
    about: "Every change of every record: diffs, stage moves, outcomes.",
  },
  credit_ledger: {
    key: ["id"],
    natural: ["seq"],
    remappable: true,
    about: "The credit ledger, as history: an import never changes the target's balance.",
  },
  radar_criteria: {
    key: ["topic_id"],
    natural: null,
    remappable: false,
    about: "Radar criteria as read from their topics (the topic holds the block: an import checks, it does not write these).",
  },
  radar_searches: { key: ["id"], natural: null, remappable: true, about: "Radar searches." },
  radar_runs: { key: ["id"], natural: null, remappable: true, about: "Radar runs: quote, state, charges (not the worker's lease)." },
  radar_run_trace: { key: ["run_id", "seq"], natural: null, remappable: false, about: "Each run's trace, step by step." },
  radar_run_results: { key: ["run_id", "provider_id"], natural: null, remappable: false, about: "What each run did with each prospect." },
  radar_monitors: { key: ["id"], natural: null, remappable: true, about: "Monitors re-running a search within a budget." },
  contact_unlocks: {
    key: ["entity_id", "kind"],
    natural: null,
    remappable: false,
    about: "Contact paths looked up: unlocked ones with their value (they were paid for), and misses.",
  },
};

/** Where a problem of an archive is: a file (or "" for the archive as a whole), a line, a JSON pointer. */
export interface ArchiveProblem {
  file: string;
  /** 1-based line of an NDJSON file; null for a file or the archive as a whole. */
  line: number | null;
  /** JSON pointer into the line (or the manifest); "" for the whole line or file. */
  path: string;
  message: string;
}

/** What an archive's data is consistent as of: one snapshot of the workspace, or each kind on its own. */
export const ARCHIVE_CONSISTENCY = ["snapshot", "per_kind"] as const;
export type ArchiveConsistency = (typeof ARCHIVE_CONSISTENCY)[number];
