import type { FieldDef } from "../collections/mod.ts";
import type { CriterionKind } from "./criterion-filter.ts";
import type { Prospect } from "./prospect.ts";

/**
 * The fields radar writes into a collection's records, per kind (issue 13, "Results"), and the
 * values a prospect gives them. Pure.
 */
const text = (description: string): FieldDef => ({ type: "string", max_length: 500, description });

export const RESULT_FIELDS: Record<CriterionKind, Record<string, FieldDef>> = {
  company: {
    name: text("Company name (radar)."),
    domain: text("Company domain (radar)."),
    industry: text("Industry (radar)."),
    country: text("ISO country code (radar)."),
    employee_count: { type: "integer", min: 0, description: "Employees (radar)." },
  },
  person: {
    name: text("Full name (radar)."),
    job_title: text("Job title (radar)."),
    seniority: text("Seniority (radar)."),
    company_name: text("Employer's name (radar)."),
    company_domain: text("Employer's domain (radar)."),
    country: text("ISO country code (radar)."),
  },
};

/** The record fields of a prospect: unknown values are left out rather than written as null. */
export function resultFields(p: Prospect): Record<string, string | number> {
  const all: Record<string, string | number | null> = p.kind === "company"
    ? { name: p.name, domain: p.domain, industry: p.industry, country: p.country, employee_count: p.employee_count }
    : {
      name: p.name,
      job_title: p.job_title,
      seniority: p.seniority,
      company_name: p.company_name,
      company_domain: p.company_domain,
      country: p.country,
    };
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(all)) if (v !== null && v !== "") out[k] = typeof v === "string" ? v.slice(0, 500) : v;
  return out;
}

/**
 * The field declarations a schema lacks for radar's results of `kind`, or the names it declares
 * with another type (a 400 when opening a search there).
 */
export function missingResultFields(
  declared: Record<string, FieldDef>,
  kind: CriterionKind,
): { missing: Record<string, FieldDef>; clashes: string[] } {
  const missing: Record<string, FieldDef> = {};
  const clashes: string[] = [];
  for (const [name, def] of Object.entries(RESULT_FIELDS[kind])) {
    const have = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!have) missing[name] = def;
    else if (have.type !== def.type && !(def.type === "integer" && have.type === "number")) clashes.push(name);
  }
  return { missing, clashes };
}
