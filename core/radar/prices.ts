import { type Static, Type } from "@sinclair/typebox";

/**
 * What a radar run charges, in credits, per result it writes or updates. Radar sells; credits only
 * keeps the ledger, so its prices are radar's. The rest of the price list (enrichment, contact
 * paths) is contacts', which assembles the whole table `RADAR_PRICES` sets (core/contacts/prices.ts).
 */
export const creditPrice = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, description });

export const RunPrices = Type.Object(
  {
    company_result: creditPrice("A company result written or updated by a run."),
    person_result: creditPrice("A person result written or updated by a run."),
  },
  { additionalProperties: false },
);
export type RunPrices = Static<typeof RunPrices>;

export const DEFAULT_RUN_PRICES: RunPrices = { company_result: 1, person_result: 2 };
