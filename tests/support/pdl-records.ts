import { sampleData } from "../../adapters/radar-sample/mod.ts";

/**
 * The sample directory's data written as People Data Labs records (the fields of PDL's company and
 * person schemas radar reads, lower case as PDL stores them), so the PDL protocol server of the
 * tests serves the same companies and people as `RADAR_PROVIDER=sample`.
 */
const COUNTRY: Record<string, string> = {
  US: "united states",
  GB: "united kingdom",
  DE: "germany",
  FR: "france",
  NL: "netherlands",
  ES: "spain",
  SE: "sweden",
  CA: "canada",
  AU: "australia",
  IN: "india",
};

export type PdlRecord = Record<string, unknown>;

export function pdlRecords(): { companies: PdlRecord[]; people: PdlRecord[] } {
  const data = sampleData();
  const companies = data.companies.map((c) => ({
    id: c.id,
    name: c.name.toLowerCase(),
    display_name: c.name,
    website: c.domain,
    industry: c.industry,
    employee_count: c.employee_count,
    founded: c.founded,
    tags: c.keywords,
    location: { country: COUNTRY[c.country] },
  }));
  const people = data.people.map((p) => {
    const c = data.companyById.get(p.company_id)!;
    return {
      id: p.id,
      full_name: p.name.toLowerCase(),
      first_name: p.first_name.toLowerCase(),
      last_name: p.last_name.toLowerCase(),
      job_title: p.job_title.toLowerCase(),
      job_title_levels: [p.seniority],
      location_country: COUNTRY[p.country],
      job_company_id: c.id,
      job_company_name: c.name.toLowerCase(),
      job_company_website: c.domain,
      job_company_industry: c.industry,
      job_company_employee_count: c.employee_count,
      job_company_location_country: COUNTRY[c.country],
      work_email: p.email,
      emails: [{ address: p.email, type: "current_professional" }],
      mobile_phone: p.phone,
      phone_numbers: p.phone ? [p.phone] : [],
      linkedin_url: p.linkedin_url.replace(/^https:\/\/www\./, ""),
    };
  });
  return { companies, people };
}
