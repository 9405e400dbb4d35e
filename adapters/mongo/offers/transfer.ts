import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { type ContractDoc, OFFER_KINDS, type OfferDoc } from "../../../core/offers/transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type {
  ContractDoc as StoredContractDoc,
  GrantDueDoc,
  OfferClosureDoc,
  OfferCollections,
  OfferDoc as StoredOfferDoc,
} from "./collections.ts";
import { withClosure } from "./offer-store.ts";

/**
 * Offers' kinds. An offer reads as its store reads it (its closure overlaid; a reissue still
 * pending, which no read shows, is not moved) with `effects_pending` from its closure; written
 * back as the offer document and, once it left `open`, its closure. A contract carries the due of
 * its next grant (the earliest of its own schedule), written back as that due.
 */
export function mongoOfferTransfer(c: OfferCollections): TransferKind[] {
  return [
    mongoKind({
      spec: OFFER_KINDS.offers,
      collection: c.offers,
      keyFields: ["_id"],
      toDocs: async (page) => {
        const ids = new Set(page.flatMap((d) => (d.pending_of ? [d._id, d.pending_of] : [d._id])));
        const closures = new Map((await c.offerClosures.find({ _id: { $in: [...ids] } }).toArray()).map((x) => [x._id, x]));
        return page
          .filter((d) => !d.pending_of || closures.get(d.pending_of)?.superseded_by === d._id)
          .map((d): OfferDoc => {
            const { _id, pending_of: _, ...rest } = d;
            const closure = closures.get(_id);
            return { ...withClosure({ ...rest, id: _id }, closure), effects_pending: closure?.effects_pending === true };
          });
      },
      write: async (docs: OfferDoc[]) => {
        const added = new Set(
          (await insertMissing(c.offers, docs.map(({ id, effects_pending: _, ...rest }): StoredOfferDoc => ({ ...rest, _id: id })))).map((
            d,
          ) => d._id),
        );
        const closures = docs.filter((o) => added.has(o.id) && o.status !== "open").map((o): OfferClosureDoc => {
          const status = o.status as OfferClosureDoc["status"];
          const at = (status === "accepted" ? o.accepted_at : status === "cancelled" ? o.cancelled_at : o.superseded_at) ?? o.updated_at;
          const closure: OfferClosureDoc = { _id: o.id, workspace_id: o.workspace_id, status, at, superseded_by: o.superseded_by };
          return o.effects_pending ? { ...closure, effects_pending: true } : closure;
        });
        await insertMissing(c.offerClosures, closures);
        return added.size;
      },
    }),
    mongoKind({
      spec: OFFER_KINDS.contracts,
      collection: c.contracts,
      keyFields: ["_id"],
      toDocs: async (page) => {
        const dues = await c.grantDues.find({ workspace_id: { $in: page.map((d) => d._id) } }).sort({ due_at: 1 }).toArray();
        return page.map((d): ContractDoc => {
          const { _id: _, ...contract } = d;
          const due = dues.find((x) => x.workspace_id === d.workspace_id && x.contract_started_at === d.started_at);
          return { ...contract, next_grant_at: due?.due_at ?? null };
        });
      },
      write: async (docs: ContractDoc[]) => {
        const added = new Set(
          (await insertMissing(c.contracts, docs.map(({ next_grant_at: _, ...k }): StoredContractDoc => ({ ...k, _id: k.workspace_id }))))
            .map((d) => d._id),
        );
        await insertMissing(
          c.grantDues,
          docs.filter((d) => added.has(d.workspace_id) && d.next_grant_at !== null).map((d): GrantDueDoc => ({
            _id: `${d.workspace_id}|${d.started_at}|${d.next_grant_at}`,
            workspace_id: d.workspace_id,
            contract_started_at: d.started_at,
            due_at: d.next_grant_at!,
          })),
        );
        return added.size;
      },
    }),
  ];
}
