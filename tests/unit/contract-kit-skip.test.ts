import { afterEach, beforeEach, expect, type Mock, spyOn, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { runStoreContracts, storeSuiteIds } from "../contract/kit/mod.ts";
import type { TestApi, TestFn } from "../contract/kit/test-api.ts";

/** A test API that records what a suite registers instead of running it. */
function recorder() {
  const ran: string[] = [];
  const skipped: string[] = [];
  const hooks: TestFn[] = [];
  const api: TestApi = {
    describe: (_title, body) => body(),
    test: Object.assign((title: string) => void ran.push(title), { skip: (title: string) => void skipped.push(title) }),
    expect,
    beforeAll: (fn) => void hooks.push(fn),
    afterAll: (fn) => void hooks.push(fn),
    afterEach: () => {},
  };
  return { api, ran, skipped, hooks };
}

// What the kit prints, caught per test and given back after it (bun runs every file in one process).
let printed: Mock<typeof console.log>;
beforeEach(() => {
  printed = spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => printed.mockRestore());
const lines = () => printed.mock.calls.map((c) => String(c[0]));

test("runStoreContracts() without skips registers every suite's tests and skips none", () => {
  const r = recorder();
  runStoreContracts("m", async () => createMemoryStores(), { api: r.api });
  expect(r.ran.length).toBeGreaterThan(100);
  expect(r.skipped).toEqual([]);
  expect(lines()).toEqual([]);
});

test("runStoreContracts() skip of a suite registers its tests as skipped, the reason in each title, and prints it", async () => {
  const all = recorder();
  runStoreContracts("m", async () => createMemoryStores(), { api: all.api });
  const r = recorder();
  let opened = 0;
  runStoreContracts("m", async () => (opened++, createMemoryStores()), { api: r.api, skip: { sharing: "no inboxes in this app" } });
  expect(r.skipped.length).toBeGreaterThan(0);
  expect(r.skipped.every((t) => t.endsWith(" (skipped: no inboxes in this app)"))).toBe(true);
  expect(r.ran.length + r.skipped.length).toBe(all.ran.length + 1); // + the check that every skip names something
  expect(lines()).toEqual(["contract kit: m: skipped suite sharing: no inboxes in this app"]);
  for (const hook of r.hooks) await hook();
  // The skipped suite opens no store; the transfer suite opens two (a source and a target).
  expect(opened).toBe(storeSuiteIds.length);
});

test("runStoreContracts() skip of one test by its title skips that test only, and prints it", () => {
  const r = recorder();
  const title = "TopicStore.insert() stores a topic that get() and resolve() return";
  runStoreContracts("m", async () => createMemoryStores(), { api: r.api, skip: { [title]: "slugs are resolved elsewhere" } });
  expect(r.skipped).toEqual([`${title} (skipped: slugs are resolved elsewhere)`]);
  expect(r.ran).not.toContain(title);
  expect(lines()).toEqual([`contract kit: m: skipped test "${title}": slugs are resolved elsewhere`]);
});

test("runStoreContracts() refuses a skip without a reason", () => {
  expect(() => runStoreContracts("m", async () => createMemoryStores(), { api: recorder().api, skip: { sharing: " " } })).toThrow(
    'Cannot skip "sharing" on m: give the reason',
  );
});
