import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { type ContractDoc, OFFER_KINDS, type OfferDoc } from "../../../core/offers/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { OfferTables } from "./tables.ts";

/** Offers' kinds on the memory adapter: pending effects and grant dues ride on their offer and contract. */
export function memoryOfferTransfer(t: OfferTables): TransferKind[] {
  return [
    memoryKind<OfferDoc>({
      spec: OFFER_KINDS.offers,
      docs: () => [...t.offers.values()].map((o) => ({ ...o, effects_pending: t.offerEffectsPending.has(o.id) })),
      has: (d) => t.offers.has(d.id),
      put: ({ effects_pending, ...o }) => {
        t.offers.set(o.id, o);
        if (effects_pending) t.offerEffectsPending.add(o.id);
      },
    }),
    memoryKind<ContractDoc>({
      spec: OFFER_KINDS.contracts,
      docs: () =>
        [...t.contracts.values()].map((c) => {
          const due = t.grantDues.get(c.workspace_id);
          return { ...c, next_grant_at: due && due.contract_started_at === c.started_at ? due.due_at : null };
        }),
      has: (d) => t.contracts.has(d.workspace_id),
      put: ({ next_grant_at, ...c }) => {
        t.contracts.set(c.workspace_id, c);
        if (next_grant_at !== null) {
          t.grantDues.set(c.workspace_id, { workspace_id: c.workspace_id, contract_started_at: c.started_at, due_at: next_grant_at });
        }
      },
    }),
  ];
}
