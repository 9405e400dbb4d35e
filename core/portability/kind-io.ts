import type { StoreTransfer, TransferDoc } from "../kernel/store-transfer.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { TopicStores } from "../topics/mod.ts";
import type { SharingStores } from "../sharing/mod.ts";
import type { CollectionStores } from "../collections/mod.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { RadarStores } from "../radar/mod.ts";
import type { ContactStores } from "../contacts/mod.ts";
import type { ArchiveLine } from "./lines.ts";
import type { ArchiveKind } from "./model.ts";

/**
 * The stores an archive reads and writes: the modules whose objects it holds, every store's
 * transfer kinds (core/kernel/store-transfer.ts), and the snapshot where the backend has one. The
 * hosts' `Stores` is one (core/stores.ts; a module of core does not import the root's types).
 */
export type ArchiveStores =
  & WorkspaceStores
  & TopicStores
  & SharingStores
  & CollectionStores
  & CreditStores
  & RadarStores
  & ContactStores
  & {
    readonly transfer: StoreTransfer;
    snapshot?<T>(fn: (stores: ArchiveStores) => Promise<T>): Promise<T>;
  };

/** What turning a line back into stored objects needs to know. */
export interface ArchiveImportContext {
  /** The target workspace: every document is written into it. */
  workspaceId: string;
  /** When the archive is being read back (ISO 8601 UTC), for stored fields a line does not carry. */
  now: string;
}

/** A document for one transfer kind (`Stores.transfer`, core/kernel/store-transfer.ts). */
export interface ArchiveDoc {
  /** The transfer kind's name (`topics.topics`). */
  kind: string;
  doc: TransferDoc;
}

/**
 * How one archive kind meets the stores (ADR 067): its lines as read from a workspace, and the
 * stored documents a line becomes again. One per kind, in `kinds/<module>.ts`, gathered in
 * `kinds/mod.ts`.
 */
export interface ArchiveKindIo<K extends ArchiveKind> {
  /**
   * The workspace's lines of the kind, in a stable order, streamed (through `Stores.transfer`
   * reads, or the module's own paged reads): the export writes them, the import reads the
   * target's to match ids and natural keys. `stores` may be a snapshot's.
   */
  lines(stores: ArchiveStores, workspaceId: string): AsyncIterable<ArchiveLine<K>>;
  /**
   * The documents that store `line` (its ids and references already remapped by the import) in
   * workspace `ctx.workspaceId`, written in this order through the transfer kinds they name. An
   * empty list: the kind is checked, not written (radar criteria live in their topics).
   */
  toDocs(line: ArchiveLine<K>, ctx: ArchiveImportContext): ArchiveDoc[];
}

/** The kinds' IO as one table; a kind not in it yet is neither exported nor imported. */
export type ArchiveKindIoTable = { [K in ArchiveKind]?: ArchiveKindIo<K> };
