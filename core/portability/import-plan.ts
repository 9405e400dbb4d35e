import type { Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { MemberView, Workspace, WorkspaceProviders } from "../workspaces/mod.ts";
import { type ArchiveSource, readWorkspaceArchive } from "./archive-read.ts";
import { importedId } from "./imported-id.ts";
import { ImportMaps } from "./import-maps.ts";
import { KindTally } from "./import-report.ts";
import { indexTarget, lineHash, lineKey, naturalKey, type TargetIndex } from "./import-target.ts";
import type { ArchiveKindIo, ArchiveKindIoTable } from "./kind-io.ts";
import type { ArchiveManifest } from "./manifest.ts";
import { ARCHIVE_KIND_RULES, ARCHIVE_KINDS, type ArchiveKind } from "./model.ts";
import { toArchiveLine } from "./to-line.ts";

/**
 * The stores an export or import reads and writes: those `ArchiveKindIo` reads (kind-io.ts names
 * them; a module of core does not import the root's `Stores`, ADR 066), workspaces' and the
 * transfer kinds and snapshot among them.
 */
export type PortabilityStores = Parameters<ArchiveKindIo<"workspace">["lines"]>[0];

/** What an import is given: every store (it writes through `Stores.transfer`) and the member add's providers. */
export type ImportDeps = CoreDeps<PortabilityStores> & WorkspaceProviders;

export interface ImportRun {
  deps: ImportDeps;
  principal: Principal;
  /** The target workspace. */
  ws: Workspace;
  io: ArchiveKindIoTable;
  /** The time of the import (ISO 8601 UTC). */
  now: string;
}

/** The plan (ADR 068): what each line is to the target, the id maps, and which lines to write. */
export interface ImportPlan {
  maps: ImportMaps;
  /** Per kind, the archive keys of the lines to write (members: the e-mails to invite). */
  create: Map<ArchiveKind, Set<string>>;
  tallies: Record<ArchiveKind, KindTally>;
  /**
   * Whether new objects get derived ids rather than keeping theirs: when the archive's own
   * workspace lives on this server (a copy beside its original), its ids are taken here.
   */
  derivedIds: boolean;
}

export const REASONS = {
  another: "the target holds another version (an import never overwrites)",
  workspace: "the target workspace keeps its own slug, name, plan and settings",
  role: "the target keeps its member's role",
  noIo: "this server cannot import this kind yet",
  history: "its object was skipped: its history here is the target's own",
} as const;

/** History kinds and the field naming their object: the changes of an object the import skipped are not its changes here. */
const HISTORY_OF: Partial<Record<ArchiveKind, { field: string; of: ArchiveKind }>> = {
  topic_history: { field: "topic_id", of: "topics" },
  record_history: { field: "record_id", of: "records" },
};

/**
 * The plan: the archive's second reading (each part hashed again), kind by kind in replay order.
 * Before a kind's first line it reads the target workspace's objects of that kind (their keys,
 * natural keys and content hashes), then applies the id rule to each line:
 * 1. the target holds the line's id, or the id a former run of this import derived for it: the
 *    same object, `unchanged` when equal, else `skipped` (never overwritten);
 * 2. the target holds its natural key: the same object under the target's id (mapped), compared so;
 * 3. else `created`: it keeps its id, or, when the archive's workspace lives on this server (its
 *    ids are taken here), gets `importedId(target, kind, id)`.
 * References are rewritten through the maps before a line is compared. Writes nothing.
 */
export async function planImport(run: ImportRun, source: ArchiveSource, manifest: ArchiveManifest): Promise<ImportPlan> {
  const stores = run.deps.stores;
  const derivedIds = manifest.workspace.id !== run.ws.id && (await stores.workspaces.getById(manifest.workspace.id)) !== null;
  const plan: ImportPlan = {
    maps: new ImportMaps(),
    create: new Map(),
    tallies: Object.fromEntries(ARCHIVE_KINDS.map((k) => [k, new KindTally()])) as Record<ArchiveKind, KindTally>,
    derivedIds,
  };
  const planner = new Planner(run, plan);
  for await (const rec of readWorkspaceArchive(source.open(), manifest)) {
    await planner.line(rec.kind, rec.value as unknown as Record<string, unknown>);
  }
  return plan;
}

class Planner {
  private kind: ArchiveKind | null = null;
  private target: TargetIndex | null = null;
  private members: Map<string, MemberView> | null = null;
  /** Target ids of topics and records the plan skipped (another version here). */
  private readonly skipped = new Map<ArchiveKind, Set<string>>();

  constructor(private readonly run: ImportRun, private readonly plan: ImportPlan) {}

  async line(kind: ArchiveKind, raw: Record<string, unknown>): Promise<void> {
    if (kind !== this.kind) await this.begin(kind);
    const tally = this.plan.tallies[kind];
    if (kind === "workspace") return this.workspace(raw, tally);
    if (kind === "members") return this.member(raw, tally);
    if (!this.target) return tally.add("skipped", lineKey(kind, raw), REASONS.noIo);
    const maps = this.plan.maps;
    const line = maps.rewrite(kind, raw);
    const rawKey = lineKey(kind, raw);
    const history = HISTORY_OF[kind];
    if (history && this.skipped.get(history.of)?.has(String(line[history.field]))) {
      return tally.add("skipped", rawKey, REASONS.history);
    }
    if (!ARCHIVE_KIND_RULES[kind].remappable) {
      const key = lineKey(kind, line);
      if (this.target.byKey.has(key)) return this.compare(kind, line, key, rawKey);
      this.created(kind, rawKey);
      return;
    }
    const id = raw.id as string;
    const derived = importedId(this.run.ws.id, kind, id);
    const natural = naturalKey(kind, line);
    const existing = this.target.byKey.has(id)
      ? id
      : this.target.byKey.has(derived)
      ? derived
      : natural !== null
      ? this.target.byNatural.get(natural) ?? null
      : null;
    const targetId = existing ?? (this.plan.derivedIds ? derived : id);
    maps.mapId(kind, id, targetId);
    if (kind === "collections") maps.noteCollection(id, targetId, raw.record_schema);
    if (existing === null) return this.created(kind, rawKey);
    line.id = targetId;
    await this.compare(kind, line, targetId, rawKey);
  }

  private async begin(kind: ArchiveKind): Promise<void> {
    this.kind = kind;
    this.target = null;
    const io = this.run.io[kind];
    if (kind === "members") this.members = await this.targetMembers();
    else if (kind !== "workspace" && io) this.target = await indexTarget(kind, io.lines(this.run.deps.stores, this.run.ws.id));
  }

  private created(kind: ArchiveKind, rawKey: string): void {
    let set = this.plan.create.get(kind);
    if (!set) this.plan.create.set(kind, set = new Set());
    set.add(rawKey);
    this.plan.tallies[kind].add("created", rawKey);
  }

  private async compare(kind: ArchiveKind, line: Record<string, unknown>, key: string, rawKey: string): Promise<void> {
    const same = this.target!.byKey.get(key) === (await lineHash(kind, line));
    if (!same && (kind === "topics" || kind === "records")) {
      let set = this.skipped.get(kind);
      if (!set) this.skipped.set(kind, set = new Set());
      set.add(key);
    }
    this.plan.tallies[kind].add(same ? "unchanged" : "skipped", rawKey, same ? undefined : REASONS.another);
  }

  /** The workspace line changes nothing on the target: the target is the workspace the owner chose. */
  private async workspace(raw: Record<string, unknown>, tally: KindTally): Promise<void> {
    const own = toArchiveLine.workspace(this.run.ws);
    const same = raw.slug === own.slug && raw.name === own.name && raw.plan === own.plan &&
      JSON.stringify(raw.settings) === JSON.stringify(own.settings);
    tally.add(same ? "unchanged" : "skipped", String(raw.slug), same ? undefined : REASONS.workspace);
  }

  /** Members are people: matched by e-mail; a missing one is to be invited (the member add), never given a key. */
  private async member(raw: Record<string, unknown>, tally: KindTally): Promise<void> {
    const email = String(raw.email).toLowerCase();
    const here = this.members!.get(email);
    if (here) {
      this.plan.maps.people.set(String(raw.identity_id), here.identity_id);
      const same = here.role === raw.role;
      return tally.add(same ? "unchanged" : "skipped", email, same ? undefined : REASONS.role);
    }
    // Known on this server already (a member of another workspace): the invite will link that identity.
    const known = await this.run.deps.stores.identities.getByEmail(email);
    this.plan.maps.people.set(String(raw.identity_id), known?.id ?? null);
    this.created("members", email);
  }

  private async targetMembers(): Promise<Map<string, MemberView>> {
    const byEmail = new Map<string, MemberView>();
    for (let offset = 0;; offset += 500) {
      const { items } = await this.run.deps.stores.members.list(this.run.ws.id, { limit: 500, offset });
      for (const m of items) byEmail.set(m.email.toLowerCase(), m);
      if (items.length < 500) return byEmail;
    }
  }
}
