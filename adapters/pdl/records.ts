import { type CompanyProspect, type ContactDetails, type PersonProspect, SENIORITIES } from "../../core/radar/mod.ts";
import { isoCountryCode } from "./countries.ts";

/** PDL's company and person records (the fields radar reads) as radar's prospects and contacts. */
type PdlRecord = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function companyProspect(r: PdlRecord): CompanyProspect {
  const location = (r.location ?? {}) as PdlRecord;
  return {
    kind: "company",
    id: String(r.id),
    name: str(r.display_name) ?? str(r.name) ?? String(r.id),
    domain: str(r.website)?.toLowerCase() ?? null,
    industry: str(r.industry),
    country: isoCountryCode(location.country),
    employee_count: num(r.employee_count),
  };
}

/** The most senior of PDL's `job_title_levels` that radar knows. */
function seniority(levels: unknown): string | null {
  if (!Array.isArray(levels)) return null;
  return SENIORITIES.find((s) => levels.includes(s)) ?? null;
}

export function personProspect(r: PdlRecord): PersonProspect {
  return {
    kind: "person",
    id: String(r.id),
    name: str(r.full_name) ?? String(r.id),
    job_title: str(r.job_title),
    seniority: seniority(r.job_title_levels),
    country: isoCountryCode(r.location_country),
    company_id: str(r.job_company_id),
    company_name: str(r.job_company_name),
    company_domain: str(r.job_company_website)?.toLowerCase() ?? null,
  };
}

/** PDL writes LinkedIn URLs without a scheme ("linkedin.com/in/x"). */
const linkedin = (v: unknown): string | null => {
  const s = str(v);
  if (!s) return null;
  return /^https?:\/\//.test(s) ? s : `https://www.${s.replace(/^www\./, "")}`;
};

/**
 * Contact details from an enriched person. Without access to contact fields PDL answers `true`
 * where it has a value: only strings count.
 */
export function contactDetails(r: PdlRecord): ContactDetails {
  const emails = Array.isArray(r.emails) ? (r.emails as PdlRecord[]) : [];
  const phones = Array.isArray(r.phone_numbers) ? r.phone_numbers : [];
  return {
    email: str(r.work_email) ?? emails.map((e) => str(e?.address)).find((e) => e !== null) ?? null,
    phone: str(r.mobile_phone) ?? phones.map(str).find((p) => p !== null) ?? null,
    linkedin_url: linkedin(r.linkedin_url),
  };
}
