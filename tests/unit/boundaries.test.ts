import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The walls of the architecture (ADR 001, 018, 062), checked on every file rather than kept by
 * care: core imports only itself and TypeBox and uses no runtime of its own, and reads the wall
 * clock only through its clock port; adapters never import the server or the workers; workers
 * import of the server only its composition root; the server never imports workers; routes, http/
 * and mcp/ never import adapters; no module of core reaches into another module's files, and the
 * server never into any, only through a mod.ts.
 */
const root = resolve(import.meta.dir, "../..");

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every module specifier of a file: static imports and re-exports (type-only too), side-effect and dynamic imports. */
function specifiers(file: string): string[] {
  const code = readFileSync(join(root, file), "utf8");
  const out: string[] = [];
  for (
    const re of [
      /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*["']([^"']+)["']/g,
      /(?:^|[\s;])import\s*["']([^"']+)["']/g,
      /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    ]
  ) {
    for (const m of code.matchAll(re)) out.push(m[1]!);
  }
  return out;
}

/** Where a specifier leads: a repository path for relative ones, the package name otherwise. */
function target(file: string, spec: string): string {
  return spec.startsWith(".") ? relative(root, resolve(root, dirname(file), spec)) : spec;
}

function violations(dirs: string[], allowed: (file: string, to: string, spec: string) => boolean): string[] {
  return dirs.flatMap((d) =>
    sources(d).flatMap((f) => specifiers(f).filter((s) => !allowed(f, target(f, s), s)).map((s) => `${f} imports ${s}`))
  );
}

describe("architecture boundaries", () => {
  test("the scanner sees imports (a file known to import TypeBox and core)", () => {
    expect(specifiers("core/collections/record-schema.ts")).toContain("@sinclair/typebox");
  });

  // yaml (front matter), fflate (zip's deflate) and modern-tar (Web Streams tar): runtime-neutral,
  // dependency-free readers and writers of the archive formats (ADRs 064 and 065).
  test("core imports only itself, TypeBox, the oslo crypto/encoding packages and the format readers, each relative import with its .ts extension", () => {
    expect(
      violations(
        ["core"],
        (
          _f,
          to,
          spec,
        ) => (spec.startsWith(".")
          ? to.startsWith("core/") && to.endsWith(".ts")
          : spec === "@sinclair/typebox" || spec.startsWith("@sinclair/typebox/") || /^@oslojs\/(crypto|encoding)(\/|$)/.test(spec) ||
            ["yaml", "fflate", "modern-tar"].includes(spec)),
      ),
    ).toEqual([]);
  });

  test("core uses no runtime of its own: no Bun, Deno, process or node: APIs", () => {
    const found = sources("core").flatMap((f) => {
      const code = readFileSync(join(root, f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      return [/\bBun\./, /\bDeno\./, /\bprocess\./, /["']node:/, /["']bun:/].filter((re) => re.test(code)).map((re) =>
        `${f}: ${re.source}`
      );
    });
    expect(found).toEqual([]);
  });

  test("a module of core imports another module only through its mod.ts (kernel is shared; the root composition types are the hosts', ADR 066)", () => {
    const moduleOf = (path: string) => (/^core\/([^/]+)\//.exec(path)?.[1] ?? null);
    const found = violations(["core"], (f, to, spec) => {
      if (!spec.startsWith(".")) return true;
      const from = moduleOf(f);
      const into = moduleOf(to);
      if (into === null) return from === null;
      if (into === from || into === "kernel") return true;
      return to === `core/${into}/mod.ts`;
    });
    expect(found).toEqual([]);
  });

  test("core/mod.ts re-exports the modules' mod.ts and the composition types, nothing else", () => {
    const extra = specifiers("core/mod.ts").filter((s) => !/^\.\/[a-z-]+\/mod\.ts$/.test(s) && s !== "./deps.ts" && s !== "./stores.ts");
    expect(extra).toEqual([]);
  });

  test("every module's mod.ts loads on its own (no import cycle reads a value before it is set)", () => {
    const mods = readdirSync(join(root, "core"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) =>
      `core/${e.name}/mod.ts`
    );
    expect(mods.length).toBeGreaterThan(8);
    const failed = mods.filter((m) =>
      Bun.spawnSync([process.execPath, "-e", `await import(${JSON.stringify(join(root, m))})`]).exitCode !== 0
    );
    expect(failed).toEqual([]);
  });

  test("adapters never import the server or the workers", () => {
    expect(violations(["adapters"], (_f, to) => !to.startsWith("server/") && !to.startsWith("workers/"))).toEqual([]);
  });

  test("workers import of the server its composition root only (config, compose, the logger, process output and shutdown), never routes or HTTP", () => {
    // One composition for both processes (ADR 024): a worker is the server minus HTTP; both log
    // and stop alike (ADR 054).
    const compositionRoot = [
      "server/compose.ts",
      "server/config.ts",
      "server/http/logger.ts",
      "server/process-output.ts",
      "server/shutdown.ts",
    ];
    expect(violations(["workers"], (_f, to) => !to.startsWith("server/") || compositionRoot.includes(to))).toEqual([]);
  });

  test("routes, http/ and mcp/ never import adapters (they are composed in server/compose.ts)", () => {
    expect(violations(["server/routes", "server/http", "server/mcp"], (_f, to) => !to.startsWith("adapters/"))).toEqual([]);
  });

  test("the server never imports workers: compose is given the job consumer by the process entry (server/main.ts, workers/main.ts)", () => {
    // The process entry wires the two together, as workers/main.ts does from the other side.
    const entry = ["server/main.ts"];
    expect(violations(["server"], (f, to) => !to.startsWith("workers/") || entry.includes(f))).toEqual([]);
  });

  test("the server imports core only through a mod.ts: a module's, or core/mod.ts in its composition root (the composition types)", () => {
    const compositionRoot = ["server/deps.ts", "server/compose.ts"];
    // `npm run store:copy` (server/store-copy/) opens stores as compose.ts does: a composition root too.
    const isRoot = (f: string) => compositionRoot.includes(f) || f.startsWith("server/store-copy/");
    const found = violations(
      ["server"],
      (f, to) => !to.startsWith("core/") || /^core\/[a-z-]+\/mod\.ts$/.test(to) || (to === "core/mod.ts" && isRoot(f)),
    );
    expect(found).toEqual([]);
  });

  test("route files sit in a folder named for the core module they serve (oauth/ is identity's server; system/ and mcp/ serve no module)", () => {
    const modules = readdirSync(join(root, "core"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const misplaced = sources("server/routes").filter((f) => {
      const folder = /^server\/routes\/([^/]+)\/[^/]+\.ts$/.exec(f)?.[1];
      return folder === undefined || !(modules.includes(folder) || ["oauth", "system", "mcp"].includes(folder));
    });
    expect(misplaced).toEqual([]);
  });

  test("core reads the wall clock only through its clock port (kernel/clock.ts's systemClock), so a test can fix the time", () => {
    const found = sources("core").filter((f) => {
      if (f === "core/kernel/clock.ts") return false;
      const code = readFileSync(join(root, f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      return /\bDate\.now\s*\(|\bnew Date\s*\(\s*\)|\bperformance\.now\s*\(/.test(code);
    });
    expect(found).toEqual([]);
  });
});
