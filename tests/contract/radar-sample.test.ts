import * as bunTest from "bun:test";
import { describe, expect, test } from "bun:test";
import {
  createSampleDirectory,
  generateSampleData,
  SAMPLE_COUNTRIES,
  SAMPLE_INDUSTRIES,
  sampleData,
} from "../../adapters/radar-sample/mod.ts";
import { SENIORITIES } from "../../core/radar/mod.ts";
import { runProspectDirectoryContract } from "./prospect-directory.contract.ts";

runProspectDirectoryContract("sample", async () => createSampleDirectory(), bunTest);

describe("the sample directory's data", () => {
  const data = sampleData();
  const tally = (values: string[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>());

  test("1,000 companies and 5,000 people, five per company in its country", () => {
    expect(data.companies).toHaveLength(1000);
    expect(data.people).toHaveLength(5000);
    expect([...tally(data.people.map((p) => p.company_id)).values()].every((n) => n === 5)).toBe(true);
    expect(data.people.every((p) => data.companyById.get(p.company_id)!.country === p.country)).toBe(true);
  });

  test("10 industries and 10 countries, each with at least 50 companies; 7 seniorities", () => {
    const industries = tally(data.companies.map((c) => c.industry));
    const countries = tally(data.companies.map((c) => c.country));
    expect([...industries.keys()].sort()).toEqual([...SAMPLE_INDUSTRIES].sort());
    expect([...countries.keys()].sort()).toEqual([...SAMPLE_COUNTRIES].sort());
    expect(Math.min(...industries.values(), ...countries.values())).toBeGreaterThanOrEqual(50);
    expect([...tally(data.people.map((p) => p.seniority)).keys()].sort()).toEqual([...SENIORITIES].sort());
    expect(SAMPLE_INDUSTRIES).toContain("software");
    expect(SAMPLE_INDUSTRIES).toContain("fintech");
  });

  test("ids and domains are unique, domains end in .example; every person has an e-mail and a LinkedIn URL, about half a phone", () => {
    expect(new Set(data.companies.map((c) => c.id)).size).toBe(1000);
    expect(new Set(data.people.map((p) => p.id)).size).toBe(5000);
    expect(new Set(data.companies.map((c) => c.domain)).size).toBe(1000);
    expect(data.companies.every((c) => /^[a-z0-9-]+\.example$/.test(c.domain))).toBe(true);
    expect(data.people.every((p) => /^[^@\s]+@[a-z0-9-]+\.example$/.test(p.email))).toBe(true);
    expect(data.people.every((p) => p.linkedin_url.startsWith("https://www.linkedin.com/in/"))).toBe(true);
    const phones = data.people.filter((p) => p.phone !== null).length;
    expect(phones).toBeGreaterThan(2250);
    expect(phones).toBeLessThan(2750);
  });

  test("the same seed gives the same data, in the same order", () => {
    const again = generateSampleData();
    expect(again.companies).toEqual(data.companies);
    expect(again.people).toEqual(data.people);
  });

  test("every company and person enriches, and every person's contacts are the data's", async () => {
    const dir = createSampleDirectory();
    const ids = data.people.slice(0, 100).map((p) => p.id);
    expect((await dir.enrich("person", ids)).every((e) => e.profile !== null)).toBe(true);
    const cids = data.companies.slice(900).map((c) => c.id);
    expect((await dir.enrich("company", cids)).every((e) => e.profile !== null)).toBe(true);
    const p = data.people[1]!;
    expect(await dir.contacts(p.id)).toEqual({ email: p.email, phone: p.phone, linkedin_url: p.linkedin_url });
  });
});
