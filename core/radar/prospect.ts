import type { CompanyFilter, PersonFilter } from "./criterion-filter.ts";

/**
 * What radar looks for and what a prospect directory answers (issue 13, "Model"): the filters of a
 * criterion and the companies and people that match them. A filter ANDs its fields; a list matches
 * when any of its values does; text compares case-insensitively. Parsing a criterion out of a topic,
 * and the "at least one condition" rule, belong to the criterion (criterion*.ts); the filters are
 * its, and the prospects here are what the `ProspectDirectory` port (ports.ts) answers.
 */
// One definition of the filters: the criterion's (criterion-filter.ts), which the directory is asked with.
export { CompanyFilter, CountryCode, EmployeeRange, PersonFilter } from "./criterion-filter.ts";

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
