import { type Static, type TSchema, Type } from "@sinclair/typebox";

/**
 * A criterion's filter (issue #13): AND across the fields it names, any-of within a list,
 * case-insensitive, at least one condition. Pure: the schemas that validate it (and document it
 * in OpenAPI) and the functions that say whether a company or a person matches it.
 */

export const MAX_FILTER_VALUES = 50;
const MAX_VALUE_LENGTH = 100;
export const MAX_EMPLOYEE_COUNT = 10_000_000;

const strict = { additionalProperties: false } as const;
const Text = Type.String({ minLength: 1, maxLength: MAX_VALUE_LENGTH, pattern: "\\S" });
const anyOf = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { minItems: 1, maxItems: MAX_FILTER_VALUES, description }));

export const CountryCode = Type.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2 (`US`, `de`: any case)." });

export const EmployeeRange = Type.Object(
  {
    min: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_EMPLOYEE_COUNT, description: "At least this many (inclusive)." })),
    max: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_EMPLOYEE_COUNT, description: "At most this many (inclusive)." })),
  },
  { ...strict, minProperties: 1, description: "Inclusive bounds; at least one; `min` ≤ `max`." },
);
export type EmployeeRange = Static<typeof EmployeeRange>;

export const CompanyFilter = Type.Object(
  {
    industries: anyOf(Text, "The company's industry is one of these."),
    countries: anyOf(CountryCode, "The company's country is one of these."),
    employee_count: Type.Optional(EmployeeRange),
    domains: anyOf(Text, "The company's domain is one of these (whole domain; a leading `www.` is ignored)."),
    keywords: anyOf(Text, "The company has one of these keywords."),
  },
  { ...strict, minProperties: 1, description: "AND across fields, any-of within a list, case-insensitive; at least one condition." },
);
export type CompanyFilter = Static<typeof CompanyFilter>;

export const PersonFilter = Type.Object(
  {
    job_titles: anyOf(
      Text,
      "The person's job title holds every word of one of these, as whole words in any order (`vp sales` matches `VP of Sales`).",
    ),
    seniorities: anyOf(Text, "The person's seniority is one of these."),
    countries: anyOf(CountryCode, "The person's country is one of these."),
    company: Type.Optional(CompanyFilter),
  },
  {
    ...strict,
    minProperties: 1,
    description: "AND across fields, any-of within a list, case-insensitive; at least one condition. `company`: their employer matches it.",
  },
);
export type PersonFilter = Static<typeof PersonFilter>;

export const CRITERION_KINDS = ["company", "person"] as const;
export type CriterionKind = (typeof CRITERION_KINDS)[number];
export type CriterionFilter = CompanyFilter | PersonFilter;

/** The filter schema of a kind. */
export function filterSchemaOf(kind: CriterionKind): typeof CompanyFilter | typeof PersonFilter {
  return kind === "company" ? CompanyFilter : PersonFilter;
}

/** The company a filter is matched against. */
export interface CompanyRecord {
  name: string;
  domain: string | null;
  industry: string | null;
  country: string | null;
  employee_count: number | null;
  keywords: readonly string[];
}

/** The person a filter is matched against; `company` is their employer, if known. */
export interface PersonRecord {
  full_name: string;
  job_title: string | null;
  seniority: string | null;
  country: string | null;
  company: CompanyRecord | null;
}

const fold = (s: string) => s.trim().toLowerCase();
/** A domain as given or as a URL ("https://www.Acme.com/about" → "acme.com"): how domains compare. */
export const bareDomain = (s: string) =>
  fold(s).replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^www\./, "").replace(/[/?#].*$/, "").replace(/\.$/, "");
const words = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");

/** True when no list is given, else when `value` equals one of `wanted` after `norm`. */
function oneOf(wanted: readonly string[] | undefined, value: string | null, norm = fold): boolean {
  if (wanted === undefined) return true;
  if (value === null) return false;
  const v = norm(value);
  return wanted.some((w) => norm(w) === v);
}

function inRange(range: EmployeeRange | undefined, count: number | null): boolean {
  if (range === undefined) return true;
  if (count === null) return false;
  return (range.min === undefined || count >= range.min) && (range.max === undefined || count <= range.max);
}

/** A title holds a phrase when it holds each of the phrase's words as a whole word. */
function titleHolds(title: string, phrase: string): boolean {
  const have = new Set(words(title));
  const need = words(phrase);
  return need.length > 0 && need.every((w) => have.has(w));
}

export function matchesCompany(filter: CompanyFilter, company: CompanyRecord): boolean {
  return oneOf(filter.industries, company.industry) &&
    oneOf(filter.countries, company.country) &&
    inRange(filter.employee_count, company.employee_count) &&
    oneOf(filter.domains, company.domain, bareDomain) &&
    (filter.keywords === undefined || company.keywords.some((k) => oneOf(filter.keywords, k)));
}

export function matchesPerson(filter: PersonFilter, person: PersonRecord): boolean {
  const title = person.job_title;
  return (filter.job_titles === undefined || (title !== null && filter.job_titles.some((p) => titleHolds(title, p)))) &&
    oneOf(filter.seniorities, person.seniority) &&
    oneOf(filter.countries, person.country) &&
    (filter.company === undefined || (person.company !== null && matchesCompany(filter.company, person.company)));
}
