/**
 * The test API the kit's suites are written against, injected by whoever runs them: `bun:test`
 * fits as it is (`import * as bunTest from "bun:test"`), Deno's runner through `denoTestApi()`.
 * It is the small Jest-compatible subset the suites use, so any Jest-style runner fits too.
 */

/** A test body or hook; may return a promise. */
export type TestFn = () => void | Promise<unknown>;

export interface TestApi {
  describe(title: string, body: () => void): void;
  test: {
    (title: string, fn: TestFn): void;
    /** Registers a test that does not run; the runner reports it as skipped. */
    skip(title: string, fn: TestFn): void;
  };
  expect: Expect;
  beforeAll(fn: TestFn): void;
  afterAll(fn: TestFn): void;
  afterEach(fn: TestFn): void;
}

/**
 * Jest's `expect`, limited to the matchers the suites use and a few as common (same meaning as
 * Jest's and Bun's). A suite that needs another adds it here and to expect.ts.
 */
export interface Expect {
  (received: unknown): Matchers;
  /** Matches any value made by `type` (`expect.any(String)` matches every string). */
  any(type: (...args: any[]) => unknown): unknown;
}

export interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toBeNull(): void;
  toBeUndefined(): void;
  toBeDefined(): void;
  toMatch(expected: string | RegExp): void;
  toContain(expected: unknown): void;
  toContainEqual(expected: unknown): void;
  toHaveLength(length: number): void;
  toBeGreaterThan(expected: number | bigint): void;
  toBeGreaterThanOrEqual(expected: number | bigint): void;
  toBeLessThan(expected: number | bigint): void;
  toBeLessThanOrEqual(expected: number | bigint): void;
  readonly not: Omit<Matchers, "not">;
}
