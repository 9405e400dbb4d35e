import type { TestApi } from "./kit/test-api.ts";
import {
  type CompanyProspect,
  type PersonProspect,
  type Prospect,
  type ProspectDirectory,
  ProspectDirectoryError,
  type ProspectQuery,
} from "../../core/radar/mod.ts";

/**
 * The values a directory under test is known to hold. Both of ours serve the sample data
 * (adapters/radar-sample/), which has these; another directory passes its own.
 */
export interface ProspectFixtures {
  industry: string;
  countries: [string, string];
  seniority: string;
  /** Words of a job title some people hold, e.g. "vp sales" for "VP of Sales". */
  jobTitle: string;
  /** An id the directory does not know. */
  unknownId: string;
}

export const SAMPLE_FIXTURES: ProspectFixtures = {
  industry: "software",
  countries: ["US", "GB"],
  seniority: "vp",
  jobTitle: "vp sales",
  unknownId: "no-such-prospect",
};

/** Why a call failed: a `ProspectDirectoryError`'s reason, "resolved" when it did not. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "resolved";
  } catch (e) {
    return e instanceof ProspectDirectoryError ? e.reason : `not a ProspectDirectoryError: ${e}`;
  }
}

/** Every match of a query, page by page. */
async function all(dir: ProspectDirectory, query: ProspectQuery, size: number): Promise<{ items: Prospect[]; pages: number }> {
  const items: Prospect[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await dir.search(query, { size, cursor });
    if (page.items.length > size) throw new Error(`a page of size ${size} held ${page.items.length}`);
    items.push(...page.items);
    cursor = page.cursor;
    pages++;
  } while (cursor !== null && pages < 1000);
  return { items, pages };
}

const words = (s: string | null) => (s ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u);

/**
 * The contract of a `ProspectDirectory` (core/radar/ports.ts): what the sample directory does and
 * the PDL adapter must do too. `open` gives the directory; `fixtures` what it is known to hold.
 */
export function runProspectDirectoryContract(
  name: string,
  open: () => Promise<ProspectDirectory>,
  api: TestApi,
  fixtures: ProspectFixtures = SAMPLE_FIXTURES,
) {
  const { beforeAll, describe, expect, test } = api;
  const { industry, countries: [c1, c2], seniority, jobTitle, unknownId } = fixtures;
  describe(`${name}: ProspectDirectory`, () => {
    let dir: ProspectDirectory;
    beforeAll(async () => {
      dir = await open();
    });
    const companies = (filter: Extract<ProspectQuery, { kind: "company" }>["filter"]): ProspectQuery => ({ kind: "company", filter });

    test("has a name", () => {
      expect(dir.name).toMatch(/^[a-z][a-z0-9-]*$/);
    });

    test("search pages through every match once, in a stable order, and the last page says cursor null", async () => {
      const q = companies({ industries: [industry], countries: [c1, c2] });
      const total = await dir.count(q);
      expect(total).toBeGreaterThan(7);
      const first = await all(dir, q, 7);
      expect(first.items).toHaveLength(total);
      expect(new Set(first.items.map((p) => p.id)).size).toBe(total);
      expect(first.pages).toBe(Math.ceil(total / 7));
      const again = await all(dir, q, 100);
      expect(again.items.map((p) => p.id)).toEqual(first.items.map((p) => p.id));
      const page = await dir.search(q, { size: 3 });
      expect(page.total).toBe(total);
      expect(page.items.map((p) => p.id)).toEqual(first.items.slice(0, 3).map((p) => p.id));
    });

    test("a company matches every field given (AND) and any value of a list; text ignores case", async () => {
      const q = companies({ industries: [industry.toUpperCase()], countries: [c1.toLowerCase(), c2] });
      const { items } = await all(dir, q, 100);
      expect(items.length).toBeGreaterThan(0);
      for (const c of items as CompanyProspect[]) {
        expect(c.kind).toBe("company");
        expect(c.industry?.toLowerCase()).toBe(industry.toLowerCase());
        expect([c1, c2]).toContain(c.country);
      }
      const one = await dir.count(companies({ industries: [industry], countries: [c1] }));
      const other = await dir.count(companies({ industries: [industry], countries: [c2] }));
      expect(one).toBeGreaterThan(0);
      expect(other).toBeGreaterThan(0);
      expect(items).toHaveLength(one + other);
      expect(await dir.count(companies({ countries: [c1] }))).toBeGreaterThan(one);
    });

    test("employee_count bounds are inclusive, and an empty range matches nothing", async () => {
      const q = companies({ countries: [c1], employee_count: { min: 50, max: 5000 } });
      const { items } = await all(dir, q, 100);
      expect(items.length).toBeGreaterThan(0);
      for (const c of items as CompanyProspect[]) {
        expect(c.employee_count).toBeGreaterThanOrEqual(50);
        expect(c.employee_count).toBeLessThanOrEqual(5000);
      }
      const edge = (items[0] as CompanyProspect).employee_count!;
      const exact = await all(dir, companies({ countries: [c1], employee_count: { min: edge, max: edge } }), 100);
      expect(exact.items.map((c) => c.id)).toContain(items[0]!.id);
      const none = await dir.search(companies({ countries: [c1], employee_count: { min: 10, max: 9 } }), { size: 10 });
      expect(none).toEqual({ items: [], total: 0, cursor: null });
    });

    test("a domain finds its company, written in any case and with a scheme", async () => {
      const [some] = (await dir.search(companies({ industries: [industry] }), { size: 1 })).items as CompanyProspect[];
      const found = await dir.search(companies({ domains: [`https://www.${some!.domain!.toUpperCase()}`] }), { size: 10 });
      expect(found.items.map((c) => c.id)).toEqual([some!.id]);
    });

    test("people match seniority, country and job title words", async () => {
      const q: ProspectQuery = {
        kind: "person",
        filter: { seniorities: [seniority.toUpperCase()], countries: [c1], job_titles: [jobTitle] },
      };
      const { items } = await all(dir, q, 100);
      expect(items.length).toBeGreaterThan(0);
      for (const p of items as PersonProspect[]) {
        expect(p.kind).toBe("person");
        expect(p.seniority).toBe(seniority);
        expect(p.country).toBe(c1);
        for (const w of words(jobTitle)) expect(words(p.job_title)).toContain(w);
      }
      const broader = await dir.count({ kind: "person", filter: { job_titles: [jobTitle, "no-such-title-word"], countries: [c1] } });
      expect(broader).toBeGreaterThanOrEqual(items.length);
    });

    test("a person's company filter matches their employer", async () => {
      const employers = await all(dir, companies({ industries: [industry], countries: [c2] }), 100);
      const domains = new Set((employers.items as CompanyProspect[]).map((c) => c.domain));
      const { items } = await all(dir, { kind: "person", filter: { company: { industries: [industry], countries: [c2] } } }, 100);
      expect(items.length).toBeGreaterThanOrEqual(employers.items.length);
      for (const p of items as PersonProspect[]) expect(domains.has(p.company_domain)).toBe(true);
    });

    test("a query matching nothing: count 0 and one empty last page", async () => {
      const q = companies({ domains: ["no-such-company.invalid"] });
      expect(await dir.count(q)).toBe(0);
      expect(await dir.search(q, { size: 5 })).toEqual({ items: [], total: 0, cursor: null });
    });

    test("a page size outside 1–100 and a cursor not of this directory are bad requests", async () => {
      const q = companies({ countries: [c1] });
      expect(await failure(dir.search(q, { size: 0 }))).toBe("bad_request");
      expect(await failure(dir.search(q, { size: 101 }))).toBe("bad_request");
      expect(await failure(dir.search(q, { size: 5, cursor: "not a cursor" }))).toBe("bad_request");
    });

    test("enrich answers one profile per id in order, and null for an id it does not know", async () => {
      const cos = (await dir.search(companies({ countries: [c1] }), { size: 2 })).items;
      const enriched = await dir.enrich("company", [cos[1]!.id, unknownId, cos[0]!.id]);
      expect(enriched.map((e) => e.id)).toEqual([cos[1]!.id, unknownId, cos[0]!.id]);
      expect(enriched[0]!.profile).toMatchObject({ id: cos[1]!.id });
      expect(enriched[1]!.profile).toBeNull();
      expect(enriched[2]!.profile).toMatchObject({ id: cos[0]!.id });
      const people = (await dir.search({ kind: "person", filter: { countries: [c2] } }, { size: 3 })).items;
      const ids = [...people.map((p) => p.id), unknownId];
      const profiles = await dir.enrich("person", ids);
      expect(profiles.map((e) => e.id)).toEqual(ids);
      expect(profiles.map((e) => e.profile === null)).toEqual([false, false, false, true]);
      expect(await dir.enrich("person", [])).toEqual([]);
    });

    test("contacts: a listed person's details, null for an unknown person", async () => {
      const [person] = (await dir.search({ kind: "person", filter: { countries: [c1] } }, { size: 1 })).items;
      const details = await dir.contacts(person!.id);
      expect(details).not.toBeNull();
      expect(Object.keys(details!).sort()).toEqual(["email", "linkedin_url", "phone"]);
      for (const v of Object.values(details!)) expect(v === null || typeof v === "string").toBe(true);
      expect(details!.linkedin_url ?? "https://").toMatch(/^https:\/\//);
      expect(await dir.contacts(unknownId)).toBeNull();
    });
  });
}
