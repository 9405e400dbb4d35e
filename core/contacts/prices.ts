import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import { creditPrice, DEFAULT_RUN_PRICES, RunPrices } from "../radar/mod.ts";

/**
 * What radar charges, in credits, per unit delivered: a run's results (radar's `RunPrices`), then
 * what contacts sells, enrichment and contact paths. One table, the one `RADAR_PRICES` sets and
 * `GET …/radar/credits` shows; it is assembled here because contacts builds on radar, not the
 * other way round (ADR 061).
 */
export const PriceTable = Type.Object(
  {
    ...RunPrices.properties,
    company_enrichment: creditPrice("A company enriched."),
    person_enrichment: creditPrice("A person enriched."),
    email: creditPrice("An e-mail address unlocked."),
    phone: creditPrice("A phone number unlocked."),
    linkedin: creditPrice("A LinkedIn URL unlocked."),
  },
  { additionalProperties: false },
);
export type PriceTable = Static<typeof PriceTable>;

export const DEFAULT_PRICES: PriceTable = {
  ...DEFAULT_RUN_PRICES,
  company_enrichment: 1,
  person_enrichment: 3,
  email: 4,
  phone: 8,
  linkedin: 1,
};

/**
 * The price table from `RADAR_PRICES` (JSON): the prices it names override the defaults. An
 * unknown name, a non-integer or a negative price throws, so a typo stops the server at start-up
 * instead of selling at the wrong price.
 */
export function parsePrices(raw: string | null | undefined): PriceTable {
  if (raw === null || raw === undefined || raw.trim() === "") return { ...DEFAULT_PRICES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("Invalid RADAR_PRICES: it is not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("Invalid RADAR_PRICES: expected a JSON object");
  const table = { ...DEFAULT_PRICES, ...parsed };
  const [error] = schemaErrorDetails(Value.Errors(PriceTable, table), { limit: 1 });
  if (error) throw new Error(`Invalid RADAR_PRICES: ${error.path}: ${error.message}`);
  return table;
}
