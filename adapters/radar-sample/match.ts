import { type CompanyFilter, matchesCompany, matchesPerson, type PersonFilter } from "../../core/radar/mod.ts";
import type { SampleCompany, SamplePerson } from "./data.ts";

/**
 * The sample directory reads a filter exactly as a criterion means it: core's matchers
 * (core/radar/criterion-filter.ts), over the sample's rows.
 */
export function companyMatches(c: SampleCompany, f: CompanyFilter): boolean {
  return matchesCompany(f, c);
}

export function personMatches(p: SamplePerson, company: SampleCompany, f: PersonFilter): boolean {
  return matchesPerson(f, { full_name: p.name, job_title: p.job_title, seniority: p.seniority, country: p.country, company });
}
