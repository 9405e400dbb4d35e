import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The walls between an adapter's module folders (ADR 061): a file of `adapters/<adapter>/<module>/`
 * imports another module folder of the same adapter only through that folder's mod.ts, which names
 * what it lends (tables, collections, row mappers, column lists, the credit ledger's account
 * writes). What a module keeps to itself can then change without another module's store noticing.
 */
const root = resolve(import.meta.dir, "../..");
const ADAPTERS = ["memory", "postgres", "mongo"];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Relative specifiers of a file's static imports and re-exports (type-only too) and dynamic imports. */
function relativeSpecifiers(file: string): string[] {
  const code = readFileSync(join(root, file), "utf8");
  const out: string[] = [];
  for (const re of [/(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*["'](\.[^"']+)["']/g, /\bimport\(\s*["'](\.[^"']+)["']\s*\)/g]) {
    for (const m of code.matchAll(re)) out.push(m[1]!);
  }
  return out;
}

/** `adapters/<adapter>/<module>/<rest>` → [adapter, module, rest]; null for a file at an adapter's root. */
function placeOf(path: string): [string, string, string] | null {
  const m = /^adapters\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
  return m ? [m[1]!, m[2]!, m[3]!] : null;
}

function reaches(adapter: string): string[] {
  return sources(`adapters/${adapter}`).flatMap((f) => {
    const from = placeOf(f);
    if (!from) return [];
    return relativeSpecifiers(f).flatMap((spec) => {
      const to = placeOf(relative(root, resolve(root, dirname(f), spec)));
      return to && to[0] === adapter && to[1] !== from[1] && to[2] !== "mod.ts" ? [`${f} imports ${spec}`] : [];
    });
  });
}

describe("adapter module boundaries", () => {
  test("the scanner sees a reach through a module's mod.ts (contacts' unlock store reads collections' rows)", () => {
    expect(relativeSpecifiers("adapters/postgres/contacts/contact-unlock-store.ts")).toContain("../collections/mod.ts");
  });

  for (const adapter of ADAPTERS) {
    test(`${adapter}: a module folder imports another module folder only through its mod.ts`, () => {
      expect(reaches(adapter)).toEqual([]);
    });
  }

  test("every adapter's mod.ts loads on its own (no cycle among the module folders reads a value before it is set)", () => {
    const failed = ADAPTERS.filter((a) =>
      Bun.spawnSync([process.execPath, "-e", `await import(${JSON.stringify(join(root, "adapters", a, "mod.ts"))})`]).exitCode !== 0
    );
    expect(failed).toEqual([]);
  });
});
