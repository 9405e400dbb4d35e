import { SENIORITIES } from "../../core/radar/mod.ts";

/**
 * The sample directory's data: 1,000 companies and 5,000 people generated from a fixed seed, so
 * every start, every test and the PDL protocol server of the tests see the same ids in the same
 * order. Pure: no I/O, no clock, no runtime API.
 */
export const SAMPLE_INDUSTRIES = [
  "software",
  "fintech",
  "healthcare",
  "ecommerce",
  "manufacturing",
  "logistics",
  "education",
  "media",
  "energy",
  "real estate",
] as const;
export const SAMPLE_COUNTRIES = ["US", "GB", "DE", "FR", "NL", "ES", "SE", "CA", "AU", "IN"] as const;
export const SAMPLE_COMPANY_COUNT = 1000;
export const PEOPLE_PER_COMPANY = 5;

export interface SampleCompany {
  id: string;
  name: string;
  domain: string;
  industry: string;
  country: string;
  employee_count: number;
  keywords: string[];
  founded: number;
}

export interface SamplePerson {
  id: string;
  first_name: string;
  last_name: string;
  name: string;
  job_title: string;
  seniority: string;
  country: string;
  company_id: string;
  email: string;
  phone: string | null;
  linkedin_url: string;
}

export interface SampleData {
  companies: SampleCompany[];
  people: SamplePerson[];
  companyById: Map<string, SampleCompany>;
  personById: Map<string, SamplePerson>;
}

const KEYWORDS = [
  "b2b",
  "saas",
  "ai",
  "payments",
  "marketplace",
  "analytics",
  "security",
  "mobile",
  "cloud",
  "hardware",
  "sustainability",
  "api",
  "consumer",
  "enterprise",
  "open source",
  "robotics",
];
const NAME_HEADS = [
  "North",
  "Blue",
  "Bright",
  "Iron",
  "Silver",
  "Green",
  "Swift",
  "Clear",
  "Red",
  "Summit",
  "Polar",
  "Quiet",
  "Bold",
  "Nova",
];
const NAME_TAILS = [
  "Harbor",
  "Peak",
  "Field",
  "Stone",
  "Wave",
  "Forge",
  "Bridge",
  "Works",
  "Labs",
  "Point",
  "Line",
  "Path",
  "Grid",
  "Loop",
];
const NAME_KINDS = ["Systems", "Group", "Technologies", "Partners", "Co", "Industries", "Solutions"];
const FIRST = [
  "Ada",
  "Ben",
  "Chloe",
  "David",
  "Elena",
  "Farid",
  "Grace",
  "Hugo",
  "Ines",
  "Jonas",
  "Kira",
  "Liam",
  "Maya",
  "Noah",
  "Olga",
  "Pedro",
  "Quinn",
  "Rosa",
  "Sven",
  "Tara",
  "Umar",
  "Vera",
  "Wen",
  "Yara",
  "Zoe",
];
const LAST = [
  "Adams",
  "Berg",
  "Costa",
  "Dubois",
  "Evans",
  "Fischer",
  "Garcia",
  "Hansen",
  "Ivanova",
  "Jensen",
  "Khan",
  "Lopez",
  "Meyer",
  "Novak",
  "Okafor",
  "Patel",
  "Rossi",
  "Smith",
  "Tanaka",
  "Visser",
  "Weber",
  "Young",
];
const TITLES: Record<(typeof SENIORITIES)[number], string[]> = {
  owner: ["Founder", "Owner", "Co-Founder"],
  cxo: ["Chief Executive Officer", "Chief Technology Officer", "Chief Financial Officer", "Chief Marketing Officer"],
  vp: ["VP of Sales", "VP of Engineering", "VP of Marketing", "VP of Operations"],
  director: ["Director of Sales", "Director of Engineering", "Director of Product", "Marketing Director"],
  manager: ["Sales Manager", "Engineering Manager", "Product Manager", "Operations Manager"],
  senior: ["Senior Software Engineer", "Senior Account Executive", "Senior Data Analyst", "Senior Designer"],
  entry: ["Sales Development Representative", "Junior Analyst", "Software Engineer", "Marketing Associate"],
};
const DIALING: Record<string, string> = {
  US: "1",
  GB: "44",
  DE: "49",
  FR: "33",
  NL: "31",
  ES: "34",
  SE: "46",
  CA: "1",
  AU: "61",
  IN: "91",
};

/** mulberry32: a small, fast, seeded generator; the same seed gives the same data everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Generates the data; `sampleData()` keeps one copy. */
export function generateSampleData(seed = 20261124): SampleData {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const companies: SampleCompany[] = [];
  const people: SamplePerson[] = [];
  const domains = new Set<string>();
  for (let i = 0; i < SAMPLE_COMPANY_COUNT; i++) {
    const name = `${pick(NAME_HEADS)}${pick(NAME_TAILS).toLowerCase()} ${pick(NAME_KINDS)}`;
    let domain = `${slug(name)}.example`;
    for (let n = 2; domains.has(domain); n++) domain = `${slug(name)}-${n}.example`;
    domains.add(domain);
    const keywords = [...new Set([pick(KEYWORDS), pick(KEYWORDS), pick(KEYWORDS)])];
    const company: SampleCompany = {
      id: `co_${pad(i + 1, 4)}`,
      name,
      domain,
      // Every industry meets every country ten times: each has 100 companies.
      industry: SAMPLE_INDUSTRIES[i % SAMPLE_INDUSTRIES.length]!,
      country: SAMPLE_COUNTRIES[Math.floor(i / SAMPLE_INDUSTRIES.length) % SAMPLE_COUNTRIES.length]!,
      employee_count: Math.round(Math.exp(Math.log(2) + rnd() * (Math.log(20_000) - Math.log(2)))),
      keywords,
      founded: 1950 + Math.floor(rnd() * 75),
    };
    companies.push(company);
    for (let j = 0; j < PEOPLE_PER_COMPANY; j++) {
      const k = i * PEOPLE_PER_COMPANY + j;
      const seniority = SENIORITIES[k % SENIORITIES.length]!;
      const first = pick(FIRST);
      const last = pick(LAST);
      const id = `pe_${pad(k + 1, 5)}`;
      const hasPhone = rnd() < 0.5;
      people.push({
        id,
        first_name: first,
        last_name: last,
        name: `${first} ${last}`,
        job_title: pick(TITLES[seniority]),
        seniority,
        country: company.country,
        company_id: company.id,
        email: `${first}.${last}.${k + 1}@${domain}`.toLowerCase(),
        phone: hasPhone ? `+${DIALING[company.country]}555${pad(Math.floor(rnd() * 10_000_000), 7)}` : null,
        linkedin_url: `https://www.linkedin.com/in/${slug(`${first}-${last}`)}-${pad(k + 1, 5)}`,
      });
    }
  }
  return {
    companies,
    people,
    companyById: new Map(companies.map((c) => [c.id, c])),
    personById: new Map(people.map((p) => [p.id, p])),
  };
}

let cached: SampleData | undefined;
/** The sample data (generated once, then shared: treat it as read-only). */
export function sampleData(): SampleData {
  return (cached ??= generateSampleData());
}
