import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { type ContractDoc, OFFER_KINDS, type OfferDoc } from "../../../core/offers/transfer.ts";
import { isoOrNull, type SqlDriver } from "../driver.ts";
import { json } from "../row-values.ts";
import { plainColumns, sqlKind, type SqlTransferColumn } from "../transfer-kind.ts";
import { CONTRACT_COLUMNS, OFFER_COLUMNS, toContract, toOffer } from "./offer-store.ts";

const aliased = (columns: string) => columns.split(",").map((c) => `t.${c.trim()}`).join(", ");
const jsonb = <D>(name: keyof D & string): SqlTransferColumn<D> => ({ name, cast: "text::jsonb", value: (d) => json(d[name]) });

/** Offers' kinds over `billing_offers` and `billing_contracts` (migrations 018, 026): `effects_pending` and `next_grant_at` are columns. */
export function sqlOfferTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<OfferDoc>(db, {
      spec: OFFER_KINDS.offers,
      table: "billing_offers",
      select: `${aliased(OFFER_COLUMNS)}, t.effects_pending`,
      toDoc: (r) => ({ ...toOffer(r), effects_pending: r.effects_pending === true }),
      keyColumns: [{ name: "id", text: false }],
      columns: [
        ...plainColumns<OfferDoc>("workspace_id", "id", "plan"),
        jsonb("limits"),
        jsonb("price"),
        ...plainColumns<OfferDoc>(
          "term_months",
          "radar_credits",
          "expires_at",
          "note",
          "status",
          "revision",
          "supersedes",
          "superseded_by",
          "created_at",
          "updated_at",
          "accepted_at",
          "cancelled_at",
          "superseded_at",
          "effects_pending",
        ),
      ],
    }),
    sqlKind<ContractDoc>(db, {
      spec: OFFER_KINDS.contracts,
      table: "billing_contracts",
      select: `${aliased(CONTRACT_COLUMNS)}, t.next_grant_at`,
      toDoc: (r) => ({ ...toContract(r), next_grant_at: isoOrNull(r.next_grant_at) }),
      keyColumns: [{ name: "workspace_id", text: false }],
      columns: [
        ...plainColumns<ContractDoc>("workspace_id", "plan"),
        jsonb("limits"),
        jsonb("price"),
        ...plainColumns<ContractDoc>(
          "term_months",
          "note",
          "started_at",
          "term_ends_at",
          "source",
          "offer_id",
          "updated_at",
          "next_grant_at",
        ),
      ],
    }),
  ];
}
