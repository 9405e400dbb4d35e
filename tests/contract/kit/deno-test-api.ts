import { expect as kitExpect } from "./expect.ts";
import type { Expect, TestApi, TestFn } from "./test-api.ts";

// Only what this file uses of Deno's own API (so that tsc, with Bun's types, checks it too).
interface DenoTestDefinition {
  name: string;
  fn(): Promise<void>;
  ignore?: boolean;
  sanitizeOps?: boolean;
  sanitizeResources?: boolean;
}
declare const Deno: { test(t: DenoTestDefinition): void };

interface Case {
  title: string;
  fn: TestFn;
  skip: boolean;
}
interface Group {
  title: string;
  items: (Case | Group)[];
  beforeAll: TestFn[];
  afterEach: TestFn[];
  afterAll: TestFn[];
  started?: Promise<void>;
  /** Tests of the group (nested groups included) still to run; its afterAll hooks run at 0. */
  pending: number;
}

/**
 * `describe`/`test`/hooks on `Deno.test`, needing nothing beyond the runtime: each test becomes
 * one `Deno.test` named "describe > … > test" (so Deno's summary counts tests, not groups), a
 * group's `beforeAll` hooks run once before its first test, its `afterEach` hooks after each
 * (innermost group first) and its `afterAll` hooks after its last, and a skipped test is an
 * ignored `Deno.test`. `expect` defaults to the kit's own; pass
 * another Jest-compatible one (e.g. `jsr:@std/expect`) if you have it.
 *
 * Sanitizers are off for these tests: a suite's store is opened in its first test and closed in
 * its last by design, so its connections and timers outlive every single test. Under
 * `deno test --filter`, a group whose last test is filtered out does not run its `afterAll`.
 */
export function denoTestApi(expect: Expect = kitExpect): TestApi {
  let current: Group | null = null;

  function inGroup(what: string): Group {
    if (!current) throw new Error(`Cannot register ${what}: the Deno adapter takes hooks inside describe() only`);
    return current;
  }

  function describe(title: string, body: () => void) {
    const group: Group = { title, items: [], beforeAll: [], afterEach: [], afterAll: [], pending: 0 };
    const parent = current;
    parent?.items.push(group);
    current = group;
    try {
      body();
    } finally {
      current = parent;
    }
    if (!parent) register(group, []);
  }

  function add(title: string, fn: TestFn, skip: boolean) {
    if (current) current.items.push({ title, fn, skip });
    else register({ title: "", items: [{ title, fn, skip }], beforeAll: [], afterEach: [], afterAll: [], pending: 0 }, []);
  }

  const test = Object.assign((title: string, fn: TestFn) => add(title, fn, false), {
    skip: (title: string, fn: TestFn) => add(title, fn, true),
  });

  return {
    describe,
    test,
    expect,
    beforeAll: (fn) => void inGroup("beforeAll()").beforeAll.push(fn),
    afterEach: (fn) => void inGroup("afterEach()").afterEach.push(fn),
    afterAll: (fn) => void inGroup("afterAll()").afterAll.push(fn),
  };
}

/** Counts each group's tests that will run, then registers every test in declaration order. */
function register(group: Group, outer: Group[]) {
  const chain = [...outer, group];
  for (const item of group.items) {
    if ("items" in item) {
      register(item, chain);
      continue;
    }
    if (!item.skip) { for (const g of chain) g.pending++; }
    Deno.test({
      name: [...chain.map((g) => g.title).filter(Boolean), item.title].join(" > "),
      ignore: item.skip,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: () => run(item, chain),
    });
  }
}

async function run(item: Case, chain: Group[]) {
  const failures: unknown[] = [];
  const attempt = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (e) {
      failures.push(e);
    }
  };
  // A failing beforeAll fails every test of its group with the same error, as in Bun.
  await attempt(async () => {
    for (const g of chain) await (g.started ??= runHooks(g.beforeAll));
    await item.fn();
  });
  const inward = [...chain].reverse();
  for (const g of inward) await attempt(() => runHooks(g.afterEach));
  for (const g of inward) if (--g.pending === 0) await attempt(() => runHooks(g.afterAll));
  // The test's own failure first; a hook's only when the test passed.
  if (failures.length > 0) throw failures[0];
}

async function runHooks(hooks: TestFn[]) {
  for (const hook of hooks) await hook();
}
