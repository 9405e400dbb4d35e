import { describe, expect, test } from "bun:test";
import { criterionBody, filterProblems, parseCriterion, renderCriterion } from "../../core/radar/criterion-block.ts";
import { type CompanyRecord, matchesCompany, matchesPerson, type PersonRecord } from "../../core/radar/criterion-filter.ts";

const acme: CompanyRecord = {
  name: "Acme",
  domain: "acme.example",
  industry: "Software",
  country: "DE",
  employee_count: 120,
  keywords: ["B2B", "SaaS"],
};
const ada: PersonRecord = { full_name: "Ada L", job_title: "VP of Sales", seniority: "vp", country: "GB", company: acme };

describe("criterion filter matching", () => {
  test("case-insensitive, any-of within a list", () => {
    expect(matchesCompany({ industries: ["fintech", "SOFTWARE"] }, acme)).toBe(true);
    expect(matchesCompany({ countries: ["de"] }, acme)).toBe(true);
    expect(matchesCompany({ countries: ["FR", "NL"] }, acme)).toBe(false);
    expect(matchesCompany({ domains: ["WWW.Acme.example"] }, acme)).toBe(true);
    expect(matchesCompany({ domains: ["acme.com"] }, acme)).toBe(false);
    expect(matchesCompany({ keywords: ["saas"] }, acme)).toBe(true);
    expect(matchesCompany({ keywords: ["hardware"] }, acme)).toBe(false);
  });

  test("AND across fields: one failing field fails the match", () => {
    expect(matchesCompany({ industries: ["software"], countries: ["DE"] }, acme)).toBe(true);
    expect(matchesCompany({ industries: ["software"], countries: ["US"] }, acme)).toBe(false);
  });

  test("employee_count bounds are inclusive; an unknown count matches no range", () => {
    expect(matchesCompany({ employee_count: { min: 120, max: 120 } }, acme)).toBe(true);
    expect(matchesCompany({ employee_count: { min: 121 } }, acme)).toBe(false);
    expect(matchesCompany({ employee_count: { max: 119 } }, acme)).toBe(false);
    expect(matchesCompany({ employee_count: { max: 500 } }, acme)).toBe(true);
    expect(matchesCompany({ employee_count: { min: 1 } }, { ...acme, employee_count: null })).toBe(false);
  });

  test("job titles match by whole words in any order", () => {
    expect(matchesPerson({ job_titles: ["sales vp"] }, ada)).toBe(true);
    expect(matchesPerson({ job_titles: ["cto", "vp sales"] }, ada)).toBe(true);
    expect(matchesPerson({ job_titles: ["vp marketing"] }, ada)).toBe(false);
    expect(matchesPerson({ job_titles: ["sal"] }, ada)).toBe(false);
    expect(matchesPerson({ job_titles: ["vp"] }, { ...ada, job_title: null })).toBe(false);
  });

  test("person: seniorities and countries, and company as a nested company filter", () => {
    expect(matchesPerson({ seniorities: ["VP", "cxo"], countries: ["gb"] }, ada)).toBe(true);
    expect(matchesPerson({ seniorities: ["director"] }, ada)).toBe(false);
    expect(matchesPerson({ company: { industries: ["software"], employee_count: { min: 100 } } }, ada)).toBe(true);
    expect(matchesPerson({ company: { countries: ["US"] } }, ada)).toBe(false);
    expect(matchesPerson({ company: { countries: ["DE"] } }, { ...ada, company: null })).toBe(false);
  });

  test("a filter needs at least one condition; lists at least one value; min ≤ max", () => {
    expect(filterProblems("company", {}).length).toBeGreaterThan(0);
    expect(filterProblems("company", { industries: [] }).map((p) => p.path)).toContain("/filter/industries");
    expect(filterProblems("person", { company: {} }).map((p) => p.path)).toContain("/filter/company");
    expect(filterProblems("company", { employee_count: { min: 10, max: 5 } })).toEqual([
      { path: "/filter/employee_count", message: "min must not exceed max" },
    ]);
    expect(filterProblems("person", { company: { employee_count: { min: 10, max: 5 } } })).toEqual([
      { path: "/filter/company/employee_count", message: "min must not exceed max" },
    ]);
    expect(filterProblems("company", { countries: ["DEU"] }).map((p) => p.path)).toContain("/filter/countries/0");
    expect(filterProblems("company", { job_titles: ["cto"] }).map((p) => p.path)).toContain("/filter/job_titles");
    expect(filterProblems("person", { job_titles: ["cto"], company: { domains: ["a.example"] } })).toEqual([]);
  });
});

describe("criterion block in a topic body", () => {
  const body =
    '# Targets\r\n\r\nWho we sell to.\n\n```radar-criterion\n{"kind":"company","filter":{"countries":["DE"]}}\n```\n\nTail text ~~~ stays.\n';

  test("finds and parses the one block", () => {
    const parsed = parseCriterion(body);
    expect(parsed.ok && parsed.block).toEqual({ kind: "company", filter: { countries: ["DE"] } });
  });

  test("no block, or a block in another fence, is missing", () => {
    expect(parseCriterion("just text")).toMatchObject({ ok: false, missing: true });
    expect(parseCriterion("````md\n```radar-criterion\n{}\n```\n````\n")).toMatchObject({ ok: false, missing: true });
    expect(parseCriterion('```json\n{"kind":"company"}\n```\n')).toMatchObject({ ok: false, missing: true });
  });

  test("an invalid block reports every problem", () => {
    const bad = parseCriterion('```radar-criterion\n{"kind":"robot","extra":1}\n```\n');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.missing).toBe(false);
    expect(!bad.ok && bad.problems.map((p) => p.path).sort()).toEqual(["/extra", "/filter", "/kind"]);
    const many = parseCriterion('```radar-criterion\n{"kind":"person","filter":{"countries":["x"],"age":3}}\n```\n');
    expect(!many.ok && many.problems.map((p) => p.path).sort()).toEqual(["/filter/age", "/filter/countries/0"]);
    expect(parseCriterion("```radar-criterion\nnot json\n```\n")).toMatchObject({ ok: false, missing: false });
    expect(parseCriterion("```radar-criterion\n{}\n")).toMatchObject({ ok: false, missing: false });
    const two = criterionBody({ kind: "company", filter: { countries: ["DE"] } });
    expect(parseCriterion(two + two)).toMatchObject({ ok: false, missing: false });
  });

  test("rendering replaces only the block's content, the rest byte for byte", () => {
    const parsed = parseCriterion(body);
    if (!parsed.ok) throw new Error("expected a criterion");
    const next = renderCriterion(body, parsed, { kind: "company", filter: { countries: ["FR"], keywords: ["saas"] } });
    const [before, after] = [body.split("```radar-criterion\n")[0], body.split("\n```\n")[1]];
    expect(next.startsWith(`${before}\`\`\`radar-criterion\n`)).toBe(true);
    expect(next.endsWith(`\n\`\`\`\n${after}`)).toBe(true);
    const again = parseCriterion(next);
    expect(again.ok && again.block).toEqual({ kind: "company", filter: { countries: ["FR"], keywords: ["saas"] } });
  });

  test("an indented tilde fence keeps its indent and line endings", () => {
    const crlf = 'Intro\r\n  ~~~~ radar-criterion extra\r\n  {"kind":"person","filter":{"seniorities":["vp"]}}\r\n  ~~~~\r\nEnd';
    const parsed = parseCriterion(crlf);
    if (!parsed.ok) throw new Error("expected a criterion");
    const next = renderCriterion(crlf, parsed, { kind: "person", filter: { seniorities: ["cxo"] } });
    expect(next).toBe(
      'Intro\r\n  ~~~~ radar-criterion extra\r\n  {\r\n    "kind": "person",\r\n    "filter": {\r\n      "seniorities": [\r\n        "cxo"\r\n      ]\r\n    }\r\n  }\r\n  ~~~~\r\nEnd',
    );
  });
});
