import { type Static, Type } from "@sinclair/typebox";

/**
 * What radar looks for and what a prospect directory answers (issue 13, "Model"): the filters of a
 * criterion and the companies and people that match them. A filter ANDs its fields; a list matches
 * when any of its values does; text compares case-insensitively. Parsing a criterion out of a topic,
 * and the "at least one condition" rule, belong to the criterion (criterion*.ts); these are the
 * shapes both it and the `ProspectDirectory` port (ports.ts) speak.
 */
const words = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100, uniqueItems: true, description });

/** ISO 3166-1 alpha-2, either case ("US", "gb"). */
export const CountryCode = Type.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2 country code." });

export const EmployeeCountRange = Type.Object(
  {
    min: Type.Optional(Type.Integer({ minimum: 0, description: "At least this many employees." })),
    max: Type.Optional(Type.Integer({ minimum: 0, description: "At most this many employees." })),
  },
  { additionalProperties: false },
);
export type EmployeeCountRange = Static<typeof EmployeeCountRange>;

export const CompanyFilter = Type.Object(
  {
    industries: Type.Optional(words("Any of these industries (e.g. software, fintech).")),
    countries: Type.Optional(
      Type.Array(CountryCode, { minItems: 1, maxItems: 250, description: "Headquartered in any of these countries." }),
    ),
    employee_count: Type.Optional(EmployeeCountRange),
    domains: Type.Optional(words("Any of these web domains (e.g. acme.com).")),
    keywords: Type.Optional(words("Tagged with any of these keywords.")),
  },
  { additionalProperties: false },
);
export type CompanyFilter = Static<typeof CompanyFilter>;

export const PersonFilter = Type.Object(
  {
    job_titles: Type.Optional(words('Any of these titles; a title matches a job title holding all its words ("vp sales").')),
    seniorities: Type.Optional(words("Any of these seniorities (owner, cxo, vp, director, manager, senior, entry).")),
    countries: Type.Optional(Type.Array(CountryCode, { minItems: 1, maxItems: 250, description: "Located in any of these countries." })),
    company: Type.Optional(CompanyFilter),
  },
  { additionalProperties: false },
);
export type PersonFilter = Static<typeof PersonFilter>;

/** The seniorities radar knows (PDL's job title levels, of which the sample directory uses these). */
export const SENIORITIES = ["owner", "cxo", "vp", "director", "manager", "senior", "entry"] as const;

/** What a directory is asked: companies or people, and the filter they must match. */
export type ProspectQuery = { kind: "company"; filter: CompanyFilter } | { kind: "person"; filter: PersonFilter };
export type ProspectKind = ProspectQuery["kind"];

/** A company as a directory lists it. `id` is the directory's own, stable across calls. */
export interface CompanyProspect {
  kind: "company";
  id: string;
  name: string;
  /** Lower case, no scheme (acme.com); null when the directory has none. */
  domain: string | null;
  industry: string | null;
  /** ISO alpha-2, upper case; null when unknown. */
  country: string | null;
  employee_count: number | null;
}

/** A person as a directory lists them (contact details are looked up, and paid for, apart). */
export interface PersonProspect {
  kind: "person";
  id: string;
  name: string;
  job_title: string | null;
  seniority: string | null;
  country: string | null;
  company_id: string | null;
  company_name: string | null;
  company_domain: string | null;
}

export type Prospect = CompanyProspect | PersonProspect;

/** A person's contact details; null where the directory has none. */
export interface ContactDetails {
  email: string | null;
  phone: string | null;
  linkedin_url: string | null;
}
