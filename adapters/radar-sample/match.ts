import type { CompanyFilter, PersonFilter } from "../../core/radar/mod.ts";
import type { SampleCompany, SamplePerson } from "./data.ts";

/**
 * The sample directory's reading of a filter (core/radar/prospect.ts): AND across fields, any of a
 * list, text case-insensitive. A job title matches when the person's title holds all its words.
 */
const lower = (list: string[]) => list.map((s) => s.toLowerCase());
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
/** "https://www.Acme.com/" → "acme.com". */
export const bareDomain = (s: string) => s.trim().toLowerCase().replace(/^[a-z]+:\/\//, "").replace(/^www\./, "").replace(/\/.*$/, "");

export function companyMatches(c: SampleCompany, f: CompanyFilter): boolean {
  if (f.industries && !lower(f.industries).includes(c.industry)) return false;
  if (f.countries && !f.countries.some((x) => x.toUpperCase() === c.country)) return false;
  if (f.employee_count?.min !== undefined && c.employee_count < f.employee_count.min) return false;
  if (f.employee_count?.max !== undefined && c.employee_count > f.employee_count.max) return false;
  if (f.domains && !f.domains.map(bareDomain).includes(c.domain)) return false;
  if (f.keywords && !lower(f.keywords).some((k) => c.keywords.includes(k))) return false;
  return true;
}

export function personMatches(p: SamplePerson, company: SampleCompany, f: PersonFilter): boolean {
  if (f.job_titles) {
    const title = new Set(words(p.job_title));
    if (!f.job_titles.some((t) => words(t).every((w) => title.has(w)))) return false;
  }
  if (f.seniorities && !lower(f.seniorities).includes(p.seniority)) return false;
  if (f.countries && !f.countries.some((x) => x.toUpperCase() === p.country)) return false;
  if (f.company && !companyMatches(company, f.company)) return false;
  return true;
}
