import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";

/**
 * What radar charges, in credits, per unit delivered. Radar sells; credits only keeps the ledger,
 * so the table is radar's (credits imports nothing of radar, and radar's runs will use credits).
 */
const price = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, description });

export const PriceTable = Type.Object(
  {
    company_result: price("A company result written or updated by a run."),
    person_result: price("A person result written or updated by a run."),
    company_enrichment: price("A company enriched."),
    person_enrichment: price("A person enriched."),
    email: price("An e-mail address unlocked."),
    phone: price("A phone number unlocked."),
    linkedin: price("A LinkedIn URL unlocked."),
  },
  { additionalProperties: false },
);
export type PriceTable = Static<typeof PriceTable>;

export const DEFAULT_PRICES: PriceTable = {
  company_result: 1,
  person_result: 2,
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
