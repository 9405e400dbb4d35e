import type { LedgerEntry } from "../../../core/credits/model.ts";
import type { ContactUnlock } from "../../../core/contacts/model.ts";
import type {
  ContactUnlockStore,
  UnlockBegun,
  UnlockClaim,
  UnlockContext,
  UnlockExpired,
  UnlockFinished,
  UnlockHold,
  UnlockLease,
  UnlockRecordWrite,
  UnlockResolution,
} from "../../../core/contacts/ports.ts";
import type { CollectionStores } from "../../../core/collections/ports.ts";
import { unlockContextOfStores } from "../../../core/contacts/unlock-context.ts";
import { recordWriteReady } from "../../../core/contacts/unlock-records.ts";
import type { MemoryCreditLedgerStore } from "../credits/mod.ts";
import { copy } from "../rows.ts";
import type { ContactTables } from "./tables.ts";

/** Each method runs in one turn of the event loop, so each is atomic by construction. */
export class MemoryContactUnlockStore implements ContactUnlockStore {
  /**
   * `ledger`: the credit ledger over the same tables (an unlock holds and claims in one write);
   * `collections`: the collection stores an unlock's context reads.
   */
  constructor(
    private readonly t: ContactTables,
    private readonly ledger: MemoryCreditLedgerStore,
    private readonly collections: CollectionStores,
  ) {}

  async beginUnlocks(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun> {
    const first = us[0];
    if (!first) return { ok: true, hold: null, claims: [] };
    // One turn of the event loop: the hold and the claims are one write.
    let held: LedgerEntry | null = null;
    if (hold) {
      const out = this.ledger.appendNow({
        workspace_id: first.workspace_id,
        id: first.token,
        at: first.claimed_at,
        op: { type: "hold", amount: hold.amount },
        reason: hold.reason,
      });
      if (!out.ok) {
        if (out.reason === "insufficient") return out;
        throw new Error(`Cannot hold credits for an unlock: the ledger refused (${out.reason})`);
      }
      held = out.entry;
      const lease: UnlockLease = { workspace_id: first.workspace_id, token: first.token, lease_until: hold.lease_until };
      this.t.radarUnlockLeases.set(`${first.workspace_id}:${first.token}`, lease);
    }
    const claims = us.map((u): UnlockClaim => {
      const key = `${u.workspace_id}:${u.entity_id}:${u.kind}`;
      const cur = this.t.radarUnlocks.get(key);
      if (cur && !(cur.state === "pending" && cur.claimed_at < staleBefore)) return { claimed: false, existing: copy(cur) };
      this.t.radarUnlocks.set(key, copy(u));
      return { claimed: true, took_over: cur?.token ?? null };
    });
    return { ok: true, hold: held, claims };
  }

  async finishUnlocks(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    r: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished> {
    this.t.radarUnlockLeases.delete(`${workspaceId}:${token}`);
    const resolved = this.ledger.resolutionOf(workspaceId, token);
    if (resolved) return { settled: [], resolution: resolved, ...(records ? { written: [] } : {}) };
    const settled: string[] = [];
    const unlocked = new Set<string>();
    for (const u of us) {
      const key = `${workspaceId}:${u.entity_id}:${u.kind}`;
      const cur = this.t.radarUnlocks.get(key);
      if (!cur || cur.state !== "pending" || cur.token !== token) continue;
      this.t.radarUnlocks.set(key, copy({ ...u, workspace_id: workspaceId, token }));
      settled.push(`${u.entity_id}:${u.kind}`);
      if (u.state === "unlocked") unlocked.add(`${u.entity_id}:${u.kind}`);
    }
    // The records showing what settled, before anything is awaited: the same turn as the capture.
    const writes = (records ?? []).filter((w) => w.write.record.workspace_id === workspaceId && recordWriteReady(w, unlocked));
    const outcomes = writes.map((w) => this.collections.records.update(w.write));
    const written = async () =>
      records ? { written: (await Promise.all(outcomes)).flatMap((o, i) => (o === "ok" ? [writes[i]!.write.record.id] : [])) } : {};
    // What the token's claims settled (now, or by a finish cut short) is captured; the rest released.
    const resolution = this.resolve(workspaceId, token, r);
    return { settled, resolution, ...(await written()) };
  }

  /** Resolves the token's hold, capturing what its claims settled; null when it has none. */
  private resolve(workspaceId: string, token: string, r: UnlockResolution): LedgerEntry | null {
    let capture = 0;
    for (const u of this.t.radarUnlocks.values()) {
      if (u.workspace_id === workspaceId && u.token === token && u.state !== "pending") capture += u.credits;
    }
    const out = this.ledger.appendNow({
      workspace_id: workspaceId,
      id: r.id,
      at: r.at,
      op: { type: "resolve", hold_id: token, capture },
      reason: r.reason,
    });
    if (out.ok) return out.entry;
    if (out.reason === "hold_not_found") return null;
    throw new Error(`Cannot resolve the unlock's hold ${token}: the ledger refused (${out.reason})`);
  }

  async expiredUnlocks(now: string, limit: number): Promise<UnlockLease[]> {
    return [...this.t.radarUnlockLeases.values()]
      .filter((l) => l.lease_until < now)
      .sort((a, b) => (a.lease_until < b.lease_until ? -1 : a.lease_until > b.lease_until ? 1 : a.token < b.token ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  async expireUnlock(workspaceId: string, token: string, r: UnlockResolution): Promise<UnlockExpired> {
    // One turn of the event loop: the drops, the resolution and the lease's end are one write.
    if (!this.t.radarUnlockLeases.delete(`${workspaceId}:${token}`)) {
      return { dropped: 0, resolution: this.ledger.resolutionOf(workspaceId, token) };
    }
    const prior = this.ledger.resolutionOf(workspaceId, token);
    if (prior) return { dropped: 0, resolution: prior };
    let dropped = 0;
    for (const [key, u] of this.t.radarUnlocks) {
      if (u.workspace_id === workspaceId && u.token === token && u.state === "pending") {
        this.t.radarUnlocks.delete(key);
        dropped++;
      }
    }
    return { dropped, resolution: this.resolve(workspaceId, token, r) };
  }

  unlockContext(workspaceId: string, collectionId: string, recordIds: readonly string[]): Promise<UnlockContext | null> {
    return unlockContextOfStores(this.collections, this, workspaceId, collectionId, recordIds);
  }
  async unlocksOf(workspaceId: string, entityIds: readonly string[]): Promise<ContactUnlock[]> {
    const wanted = new Set(entityIds);
    return [...this.t.radarUnlocks.values()].filter((u) => u.workspace_id === workspaceId && wanted.has(u.entity_id)).map(copy);
  }
}
