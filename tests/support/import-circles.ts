/**
 * The import circles of a source tree: files that reach each other through imports (type-only
 * imports too: they tie the files' meaning together as much as value imports do), found as the
 * strongly connected components of the relative-import graph (Tarjan). Used by the boundary tests
 * and, run as a script, prints the largest circles:
 *
 *   bun tests/support/import-circles.ts [dir…]   (default: core)
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** file → the files of the graph it imports (relative imports only). */
export function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap(sources);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const code = readFileSync(join(root, f), "utf8");
    const to = [...code.matchAll(IMPORT)]
      .map((m) => relative(root, resolve(root, dirname(f), m[1] ?? m[2]!)))
      .filter((t) => known.has(t));
    graph.set(f, [...new Set(to)]);
  }
  return graph;
}

/** The circles (components of more than one file), largest first. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  // Iterative Tarjan: the graph is deep enough to matter for recursion on some runtimes.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: start, i: 0 }];
    index.set(start, next), low.set(start, next++), stack.push(start), onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.v)!;
      if (top.i < edges.length) {
        const w = edges[top.i++]!;
        if (!index.has(w)) {
          index.set(w, next), low.set(w, next++), stack.push(w), onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.v);
        if (component.length > 1) out.push(component.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length);
}

if (import.meta.main) {
  const dirs = process.argv.slice(2);
  const graph = importGraph(dirs.length ? dirs : ["core"]);
  const circles = importCircles(graph);
  console.log(`${graph.size} files, ${circles.length} circles; largest: ${circles[0]?.length ?? 0} files`);
  for (const c of circles.slice(0, 5)) {
    const modules = [...new Set(c.map((f) => f.split("/").slice(0, 2).join("/")))].sort();
    console.log(`- ${c.length} files across ${modules.length} modules: ${modules.join(", ")}`);
  }
}
