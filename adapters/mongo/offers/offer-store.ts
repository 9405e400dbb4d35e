import type { BillingOffer, Contract } from "../../../core/offers/model.ts";
import type { ContractStore, GrantDue, OfferFilter, OfferStore } from "../../../core/offers/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { ContractDoc, GrantDueDoc, OfferClosureDoc, OfferCollections, OfferDoc } from "./collections.ts";

function toOffer(d: OfferDoc): BillingOffer {
  const { _id, pending_of: _pending, ...rest } = d;
  return { ...rest, id: _id };
}

function offerDoc(o: BillingOffer, pendingOf?: string): OfferDoc {
  const { id, ...rest } = o;
  return pendingOf ? { ...rest, _id: id, pending_of: pendingOf } : { ...rest, _id: id };
}

/** The offer as its closure (the compare-and-set's winner) says, whatever its document still says. */
export function withClosure(o: BillingOffer, c: OfferClosureDoc | undefined): BillingOffer {
  if (!c) return o;
  const base = { ...o, status: c.status, updated_at: o.updated_at > c.at ? o.updated_at : c.at };
  if (c.status === "accepted") return { ...base, accepted_at: c.at };
  if (c.status === "cancelled") return { ...base, cancelled_at: c.at };
  return { ...base, superseded_by: c.superseded_by, superseded_at: c.at };
}

const offerSort = { created_at: -1, _id: -1 } as const;

/**
 * Offers without transactions (ADR 005). An offer leaves `open` once, by inserting its closure
 * (`_id` = the offer's id): of concurrent transitions exactly one inserts, the others find it
 * taken and answer null. The offer document is then updated for the lists' filters; readers
 * overlay the closure, so a crash between the two shows the truth. A reissue first inserts the new
 * offer marked `pending_of` the old one (invisible), then the old one's closure naming it: the
 * winner unmarks its offer, a loser deletes its own. A crash leaves an invisible pending document
 * (before the closure) or a marked one its closure makes visible by id (after).
 */
export class MongoOfferStore implements OfferStore {
  constructor(private c: OfferCollections) {}

  async insert(offer: BillingOffer): Promise<void> {
    await this.c.offers.insertOne(offerDoc(offer));
  }

  /** Visible offers of the documents, closures overlaid; pending reissues whose closure names them are unmarked. */
  private async resolve(docs: OfferDoc[]): Promise<BillingOffer[]> {
    if (docs.length === 0) return [];
    const ids = new Set<string>(docs.map((d) => d._id));
    for (const d of docs) if (d.pending_of) ids.add(d.pending_of);
    const closures = new Map(
      (await this.c.offerClosures.find({ _id: { $in: [...ids] } }).toArray()).map((c) => [c._id, c] as const),
    );
    const out: BillingOffer[] = [];
    for (const d of docs) {
      if (d.pending_of) {
        if (closures.get(d.pending_of)?.superseded_by !== d._id) continue;
        await this.c.offers.updateOne({ _id: d._id }, { $unset: { pending_of: "" } }).catch(() => {});
      }
      out.push(withClosure(toOffer(d), closures.get(d._id)));
    }
    return out;
  }

  async get(offerId: string): Promise<BillingOffer | null> {
    const d = await this.c.offers.findOne({ _id: offerId });
    return d ? ((await this.resolve([d]))[0] ?? null) : null;
  }

  async list(filter: OfferFilter, now: string, p: OffsetPage): Promise<Listed<BillingOffer>> {
    const q: Record<string, unknown> = { pending_of: { $exists: false } };
    if (filter.workspace_id !== undefined) q.workspace_id = filter.workspace_id;
    if (filter.status === "open") Object.assign(q, { status: "open", expires_at: { $gt: now } });
    else if (filter.status === "expired") Object.assign(q, { status: "open", expires_at: { $lte: now } });
    else if (filter.status) q.status = filter.status;
    const [docs, total] = await Promise.all([
      this.c.offers.find(q as never).sort(offerSort).skip(p.offset).limit(p.limit).toArray(),
      this.c.offers.countDocuments(q as never),
    ]);
    return { items: await this.resolve(docs), total };
  }

  /** Inserts the offer's closure: true for the one writer that does. */
  private async closeOnce(closure: OfferClosureDoc): Promise<boolean> {
    try {
      await this.c.offerClosures.insertOne(closure);
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }

  async close(offerId: string, to: "accepted" | "cancelled", at: string): Promise<BillingOffer | null> {
    const offer = await this.get(offerId);
    if (!offer || offer.status !== "open" || offer.expires_at <= at) return null;
    const closure: OfferClosureDoc = { _id: offerId, workspace_id: offer.workspace_id, status: to, at, superseded_by: null };
    // An acceptance records its effects pending in the closure itself: one insert decides both.
    if (!(await this.closeOnce(to === "accepted" ? { ...closure, effects_pending: true } : closure))) return null;
    const stamp = to === "accepted" ? { accepted_at: at } : { cancelled_at: at };
    await this.c.offers.updateOne({ _id: offerId }, { $set: { status: to, updated_at: at, ...stamp } });
    return { ...offer, status: to, updated_at: at, ...stamp };
  }

  async pendingEffects(acceptedBefore: string, limit: number): Promise<BillingOffer[]> {
    const closures = await this.c.offerClosures.find({ effects_pending: true, at: { $lte: acceptedBefore } }).sort({ at: 1 }).limit(limit)
      .toArray();
    if (closures.length === 0) return [];
    const docs = await this.c.offers.find({ _id: { $in: closures.map((c) => c._id) } }).toArray();
    const byId = new Map((await this.resolve(docs)).map((o) => [o.id, o] as const));
    return closures.map((c) => byId.get(c._id)).filter((o): o is BillingOffer => o !== undefined);
  }

  async hasPendingEffects(offerId: string): Promise<boolean> {
    return (await this.c.offerClosures.findOne({ _id: offerId }))?.effects_pending === true;
  }

  /** A plain update: the closure's only write after its insert, and every writer writes the same. */
  async settleEffects(offerId: string): Promise<void> {
    await this.c.offerClosures.updateOne({ _id: offerId, effects_pending: true }, { $unset: { effects_pending: "" } });
  }

  async supersede(offerId: string, next: BillingOffer, at: string): Promise<{ previous: BillingOffer; next: BillingOffer } | null> {
    const old = await this.get(offerId);
    if (!old || old.status !== "open") return null;
    await this.c.offers.insertOne(offerDoc(next, offerId));
    const won = await this.closeOnce({ _id: offerId, workspace_id: old.workspace_id, status: "superseded", at, superseded_by: next.id });
    if (!won) {
      await this.c.offers.deleteOne({ _id: next.id });
      return null;
    }
    await this.c.offers.updateOne({ _id: offerId }, {
      $set: { status: "superseded", superseded_by: next.id, superseded_at: at, updated_at: at },
    });
    await this.c.offers.updateOne({ _id: next.id }, { $unset: { pending_of: "" } });
    return { previous: { ...old, status: "superseded", superseded_by: next.id, superseded_at: at, updated_at: at }, next };
  }
}

function toContract(d: ContractDoc): Contract {
  const { _id: _, ...rest } = d;
  return rest;
}

const dueId = (d: GrantDue) => `${d.workspace_id}|${d.contract_started_at}|${d.due_at}`;
const dueDoc = (d: GrantDue): GrantDueDoc => ({ _id: dueId(d), ...d });
const toDue = (d: GrantDueDoc): GrantDue => ({
  workspace_id: d.workspace_id,
  contract_started_at: d.contract_started_at,
  due_at: d.due_at,
});

/**
 * One contract per workspace, `_id` = workspace id; a put replaces it (last writer wins, as
 * intended). Its schedule is insert-and-delete documents (GrantDueDoc), never an update of the
 * contract: FerretDB's update rewrites the whole document it read (ADR 005), so moving a schedule
 * kept in the contract could bring back a contract replaced meanwhile.
 */
export class MongoContractStore implements ContractStore {
  constructor(private c: OfferCollections) {}

  async get(workspaceId: string): Promise<Contract | null> {
    const d = await this.c.contracts.findOne({ _id: workspaceId });
    return d ? toContract(d) : null;
  }

  async getMany(workspaceIds: string[]): Promise<Map<string, Contract>> {
    const out = new Map<string, Contract>();
    if (workspaceIds.length === 0) return out;
    for (const d of await this.c.contracts.find({ _id: { $in: workspaceIds } }).toArray()) out.set(d._id, toContract(d));
    return out;
  }

  private async insertDue(d: GrantDue): Promise<void> {
    try {
      await this.c.grantDues.insertOne(dueDoc(d));
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
  }

  /** The due first: a crash before the contract leaves a due naming no contract, which the grant drops. */
  async put(contract: Contract, firstDue: string): Promise<void> {
    const started = contract.started_at;
    await this.insertDue({ workspace_id: contract.workspace_id, contract_started_at: started, due_at: firstDue });
    await this.c.contracts.replaceOne({ _id: contract.workspace_id }, { ...contract }, { upsert: true });
    await this.c.grantDues.deleteMany({ workspace_id: contract.workspace_id, contract_started_at: { $ne: started } });
  }

  async delete(workspaceId: string): Promise<boolean> {
    const deleted = (await this.c.contracts.deleteOne({ _id: workspaceId })).deletedCount === 1;
    await this.c.grantDues.deleteMany({ workspace_id: workspaceId });
    return deleted;
  }

  async dueGrants(now: string, limit: number): Promise<GrantDue[]> {
    return (await this.c.grantDues.find({ due_at: { $lte: now } }).sort({ due_at: 1 }).limit(limit).toArray()).map(toDue);
  }

  async grantsOf(workspaceId: string): Promise<GrantDue[]> {
    return (await this.c.grantDues.find({ workspace_id: workspaceId }).sort({ workspace_id: 1, due_at: 1 }).limit(100).toArray()).map(
      toDue,
    );
  }

  /** The next due inserted before this one is deleted: a crash in between leaves both, and the older is granted again (a no-op) and dropped. */
  async advanceGrant(due: GrantDue, next: string | null): Promise<void> {
    if (!(await this.c.grantDues.findOne({ _id: dueId(due) }))) return;
    if (next !== null) await this.insertDue({ ...due, due_at: next });
    await this.c.grantDues.deleteOne({ _id: dueId(due) });
  }
}
