import { bareDomain, type CompanyFilter, type PersonFilter, ProspectDirectoryError, type ProspectQuery } from "../../core/radar/mod.ts";
import { pdlCountryName } from "./countries.ts";

/**
 * A radar filter as the Elasticsearch `bool` query PDL's search APIs take (`query`): one `must`
 * clause per field (AND), `terms` for a list (any of), `range` for employee counts, and for job
 * titles a `should` of `match` queries with operator `and` (any title, all of its words). PDL's
 * data is lower case, so values are lowered. Fields follow PDL's company and person schemas; a
 * person's employer is matched on the `job_company_*` fields.
 */
type Clause = Record<string, unknown>;
export type EsQuery = Clause;

const lower = (list: string[]) => list.map((s) => s.trim().toLowerCase());

function countries(codes: string[]): string[] {
  return codes.map((code) => {
    const name = pdlCountryName(code);
    if (!name) throw new ProspectDirectoryError("unsupported_filter", `Country ${code} is not supported by the PDL directory`);
    return name;
  });
}

function range(min: number | undefined, max: number | undefined): Clause {
  return { ...(min === undefined ? {} : { gte: min }), ...(max === undefined ? {} : { lte: max }) };
}

/** The clauses of a company filter: on the company itself, or (`person`) on a person's employer. */
function companyClauses(f: CompanyFilter, person: boolean): Clause[] {
  const field = (company: string, employer: string) => (person ? employer : company);
  const out: Clause[] = [];
  if (f.industries) out.push({ terms: { [field("industry", "job_company_industry")]: lower(f.industries) } });
  if (f.countries) out.push({ terms: { [field("location.country", "job_company_location_country")]: countries(f.countries) } });
  if (f.employee_count && (f.employee_count.min !== undefined || f.employee_count.max !== undefined)) {
    out.push({ range: { [field("employee_count", "job_company_employee_count")]: range(f.employee_count.min, f.employee_count.max) } });
  }
  if (f.domains) out.push({ terms: { [field("website", "job_company_website")]: f.domains.map(bareDomain) } });
  if (f.keywords) {
    if (person) {
      throw new ProspectDirectoryError(
        "unsupported_filter",
        "PDL's person records carry no employer keywords: company.keywords cannot filter people",
      );
    }
    out.push({ terms: { tags: lower(f.keywords) } });
  }
  return out;
}

function personClauses(f: PersonFilter): Clause[] {
  const out: Clause[] = [];
  if (f.job_titles) {
    out.push({
      bool: {
        should: lower(f.job_titles).map((t) => ({ match: { job_title: { query: t, operator: "and" } } })),
        minimum_should_match: 1,
      },
    });
  }
  if (f.seniorities) out.push({ terms: { job_title_levels: lower(f.seniorities) } });
  if (f.countries) out.push({ terms: { location_country: countries(f.countries) } });
  if (f.company) out.push(...companyClauses(f.company, true));
  return out;
}

export function pdlQuery(q: ProspectQuery): EsQuery {
  const must = q.kind === "company" ? companyClauses(q.filter, false) : personClauses(q.filter);
  return must.length === 0 ? { match_all: {} } : { bool: { must } };
}
