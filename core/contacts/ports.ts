import type { CoreDeps } from "../kernel/deps.ts";
import type { Collection, CollectionRecord, CollectionStores, Entity, RecordWrite } from "../collections/mod.ts";
import type { CreditStores, LedgerEntry } from "../credits/mod.ts";
import type { ProspectDirectory, RadarStores } from "../radar/mod.ts";
import type { PriceTable } from "./prices.ts";
import type { TopicStores } from "../topics/mod.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { ContactUnlock } from "./model.ts";

/**
 * Contact unlocks: each (workspace, entity, kind) claimed once and settled once, paid through a
 * hold on the credit ledger that the unlock's two writes take and resolve. Absence is `null` or `[]`.
 */
export interface ContactUnlockStore {
  /**
   * Begins an unlock, atomically where the backend can (docs/decisions/041-unlock-in-two-writes.md):
   * holds `hold.amount` credits (the hold's ledger id is the claims' `token`) and claims
   * `(workspace, entity, kind)` for each of `us` (state `pending`, at most 300). Short of credits:
   * `insufficient`, nothing held or claimed. A pending claim made before `staleBefore` (its
   * request died) is taken over, and `took_over` names the token that held it (its hold is for the
   * caller to repair with `finishUnlocks`). Of concurrent claims of one key exactly one is claimed;
   * the others get the claim as it stands. Answers in `us`'s order. The claims are one request's:
   * one workspace, one `token`, one `claimed_at`; `hold` null: claims only (nothing to pay).
   * A hold comes with its lease (`hold.lease_until`, docs/decisions/055-unlock-hold-sweep.md): once
   * it has passed, `expiredUnlocks` lists the token and `expireUnlock` may resolve it. `expired`:
   * the lease was swept before this begin was done (a begin stalled past it; only where the begin
   * is not one write), and nothing stays held or claimed.
   */
  beginUnlocks(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun>;
  /**
   * Finishes the unlock of `token`: settles the given claims it still holds (state, value, credits,
   * settled_at) and resolves its hold once, capturing the credits of the token's settled claims
   * and releasing the rest, atomically where the backend can. A hold resolved before (its claims
   * taken over and the hold repaired) settles nothing. `us` empty: the repair of a request that
   * died (captures what it settled, releases the rest). No hold of that id: settles only.
   * `records`: the records that show the values this call settles, written in the same write as
   * the capture where the backend can (one statement on PostgreSQL; on MongoDB after the settles
   * and before the capture): each applied only when every key it `needs` settled `unlocked` in
   * this call and the record is still at the version before (`written` names those applied).
   * Ends the token's lease. Of a finish and a concurrent `expireUnlock` of one token exactly one
   * resolves the hold; the other settles nothing.
   */
  finishUnlocks(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    resolution: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished>;
  /**
   * The leases of unlock holds that ended before `now` (their requests died, or outlived them),
   * across workspaces, the earliest first, at most `limit`: what the sweep resolves.
   */
  expiredUnlocks(now: string, limit: number): Promise<UnlockLease[]>;
  /**
   * Resolves the hold of an unlock whose request died (docs/decisions/055-unlock-hold-sweep.md),
   * while the token still holds its lease: drops the token's claims still pending (no value was
   * written for them, so nothing of them can be seen), captures the credits of the claims it
   * settled (values written, so seen) and releases the rest, and ends the lease, atomically where
   * the backend can. Of this and a concurrent `finishUnlocks` of the token exactly one resolves the
   * hold; after it, the token's finish settles nothing. Without a lease (finished, or expired
   * before): changes nothing and answers the hold's resolution, if any.
   */
  expireUnlock(workspaceId: string, token: string, resolution: UnlockResolution): Promise<UnlockExpired>;
  /** The unlocks of these entities (at most 1,000), in no particular order. */
  unlocksOf(workspaceId: string, entityIds: readonly string[]): Promise<ContactUnlock[]>;
  /**
   * What a contact-path quote or unlock reads before it writes (docs/decisions/045-unlock-plans-once.md):
   * the collection, those of `recordIds` (at most 100) that are its records, the entities they link
   * and those entities' unlocks, all of the workspace; null when the collection is not the
   * workspace's. One read where the backend can (one statement on PostgreSQL), else the stores'
   * reads in turn; not a snapshot on backends without one. Lists in no particular order.
   */
  unlockContext(workspaceId: string, collectionId: string, recordIds: readonly string[]): Promise<UnlockContext | null>;
}

/** The reads before a contact-path quote or unlock (`ContactUnlockStore.unlockContext`). */
export interface UnlockContext {
  collection: Collection;
  records: CollectionRecord[];
  /** The entities the records link (those of the workspace). */
  entities: Entity[];
  /** Every unlock of those entities, any kind. */
  unlocks: ContactUnlock[];
}

/** What an unlock holds: `amount` ≥ 1 credits, the hold entry's id being the claims' token. */
export interface UnlockHold {
  amount: number;
  reason: string | null;
  /** The end of the request's lease on the hold and its claims: past it the sweep may resolve them. */
  lease_until: string;
}

/** An unlock hold's lease: the token (the hold's ledger id) and when its request is taken for dead. */
export interface UnlockLease {
  workspace_id: string;
  token: string;
  lease_until: string;
}

/** What `expireUnlock` did: how many pending claims it dropped, and the hold's resolution. */
export interface UnlockExpired {
  dropped: number;
  /** This call's resolution, or the one before; null when the token has no hold. */
  resolution: LedgerEntry | null;
}

export type UnlockClaim = { claimed: true; took_over: string | null } | { claimed: false; existing: ContactUnlock };

export type UnlockBegun =
  | { ok: true; hold: LedgerEntry | null; claims: UnlockClaim[] }
  | { ok: false; reason: "insufficient"; required: number; available: number }
  | { ok: false; reason: "expired" };

/** The resolution entry an unlock's finish writes (when its token has a hold). */
export interface UnlockResolution {
  id: string;
  at: string;
  reason: string | null;
}

export interface UnlockFinished {
  /** The claims this call settled (`<entity_id>:<kind>`). */
  settled: string[];
  /** The hold's resolution: this call's, or the one before; null when the token has no hold. */
  resolution: LedgerEntry | null;
  /** The ids of the records of `records` this call wrote; absent when none were given. */
  written?: string[];
}

/**
 * A record an unlock's finish writes with its settles (ADR 056: every record of the person in the
 * request shows the value paid for): `write` replaces the record stored at
 * `write.record.version - 1` and appends `write.change` to its history, as `RecordStore.update`
 * does, when every key of `needs` (`<entity_id>:<kind>`, at least one) settled `unlocked` in the
 * same call. A record changed meanwhile, or a key not settled by this call, writes nothing: the
 * caller writes it afterwards.
 */
export interface UnlockRecordWrite {
  write: RecordWrite;
  needs: readonly string[];
}

/** Contacts' stores, one bundle per adapter (adapters/<adapter>/contacts/). */
export interface ContactStores {
  contactUnlocks: ContactUnlockStore;
}

/**
 * What contacts' use cases are given: its stores, radar's (enrichment reads a run's results) and
 * those of the modules it writes through (ADR 019).
 */
export type ContactDeps =
  & CoreDeps<ContactStores & RadarStores & CreditStores & CollectionStores & TopicStores & WorkspaceStores>
  & ContactProviders;

/** Contacts' own part of the host's deps: where contacts come from and what they cost. */
export interface ContactProviders {
  /** Where radar finds companies and people (the sample directory or PDL); without it, radar finds none. */
  prospects?: ProspectDirectory;
  /** What radar charges (RADAR_PRICES); default `DEFAULT_PRICES`. */
  radarPrices?: PriceTable;
  /**
   * How long a contact unlock's request owns its hold and claims before the sweep takes it for
   * dead and resolves them (docs/decisions/055-unlock-hold-sweep.md); default 60 s.
   */
  radarUnlockLeaseMs?: number;
}
