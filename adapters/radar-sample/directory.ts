import {
  type CompanyProspect,
  type Enrichment,
  type PersonProspect,
  type Prospect,
  type ProspectDirectory,
  ProspectDirectoryError,
  type ProspectKind,
  type ProspectQuery,
} from "../../core/radar/mod.ts";
import { type SampleCompany, sampleData, type SamplePerson } from "./data.ts";
import { companyMatches, personMatches } from "./match.ts";

/**
 * `RADAR_PROVIDER=sample`, the default: a directory over the generated sample data, with no
 * network. Results come in the data's order (by id); a cursor is the offset of the next page.
 */
export function createSampleDirectory(): ProspectDirectory {
  const data = sampleData();

  const toCompany = (c: SampleCompany): CompanyProspect => ({
    kind: "company",
    id: c.id,
    name: c.name,
    domain: c.domain,
    industry: c.industry,
    country: c.country,
    employee_count: c.employee_count,
  });
  const toPerson = (p: SamplePerson): PersonProspect => {
    const c = data.companyById.get(p.company_id)!;
    return {
      kind: "person",
      id: p.id,
      name: p.name,
      job_title: p.job_title,
      seniority: p.seniority,
      country: p.country,
      company_id: c.id,
      company_name: c.name,
      company_domain: c.domain,
    };
  };
  const matches = (q: ProspectQuery): Prospect[] =>
    q.kind === "company"
      ? data.companies.filter((c) => companyMatches(c, q.filter)).map(toCompany)
      : data.people.filter((p) => personMatches(p, data.companyById.get(p.company_id)!, q.filter)).map(toPerson);

  const offsetOf = (cursor: string | null | undefined): number => {
    if (cursor === null || cursor === undefined) return 0;
    const m = /^o:(\d{1,9})$/.exec(cursor);
    if (!m) throw new ProspectDirectoryError("bad_request", "Invalid cursor");
    return Number(m[1]);
  };

  const profile = (kind: ProspectKind, id: string): Record<string, unknown> | null => {
    if (kind === "company") {
      const c = data.companyById.get(id);
      return c ? { ...c, keywords: [...c.keywords], description: `${c.name} works in ${c.industry} (${c.country}).` } : null;
    }
    const p = data.personById.get(id);
    if (!p) return null;
    const { email: _e, phone: _p, linkedin_url: _l, ...rest } = p;
    const c = data.companyById.get(p.company_id)!;
    return { ...rest, company_name: c.name, company_domain: c.domain, company_industry: c.industry };
  };

  return {
    name: "sample",
    async count(query) {
      return matches(query).length;
    },
    async search(query, page) {
      if (!Number.isInteger(page.size) || page.size < 1 || page.size > 100) {
        throw new ProspectDirectoryError("bad_request", "size must be an integer from 1 to 100");
      }
      const all = matches(query);
      const from = offsetOf(page.cursor);
      const items = all.slice(from, from + page.size);
      const next = from + items.length;
      return { items, total: all.length, cursor: next < all.length ? `o:${next}` : null };
    },
    async enrich(kind, ids) {
      if (ids.length > 100) throw new ProspectDirectoryError("bad_request", "At most 100 ids per enrichment");
      return ids.map((id): Enrichment => ({ id, profile: profile(kind, id) }));
    },
    async contacts(personId) {
      const p = data.personById.get(personId);
      return p ? { email: p.email, phone: p.phone, linkedin_url: p.linkedin_url } : null;
    },
  };
}
