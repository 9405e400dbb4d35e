import type { TestApi, TestFn } from "./test-api.ts";

/**
 * What a runner chose not to run: suite ids or test titles (as written in the suite, without the
 * describe path), each with the reason. A skip is never silent: it is printed when registered,
 * its test is reported by the runner as skipped with the reason in its title, and a skip that
 * names nothing fails a test of its own (a stale skip would otherwise mislead).
 */
export type Skips = Readonly<Record<string, string>>;

export class SkipList {
  readonly #used = new Set<string>();

  constructor(
    private readonly runner: string,
    private readonly skip: Skips,
    private readonly print: (line: string) => void = console.log,
  ) {
    for (const [what, reason] of Object.entries(skip)) {
      if (!reason.trim()) throw new Error(`Cannot skip "${what}" on ${runner}: give the reason`);
    }
  }

  /** `api` for suite `suite`: its skipped tests registered as skipped; a skipped suite opens nothing. */
  apiFor(suite: string, api: TestApi): TestApi {
    const suiteReason = this.skip[suite];
    if (suiteReason !== undefined) {
      this.#used.add(suite);
      this.print(`contract kit: ${this.runner}: skipped suite ${suite}: ${suiteReason}`);
    }
    const test = Object.assign(
      (title: string, fn: TestFn) => {
        const reason = suiteReason ?? this.skip[title];
        if (reason === undefined) return api.test(title, fn);
        if (suiteReason === undefined) {
          this.#used.add(title);
          this.print(`contract kit: ${this.runner}: skipped test "${title}": ${reason}`);
        }
        api.test.skip(`${title} (skipped: ${reason})`, fn);
      },
      { skip: api.test.skip },
    );
    const noHook = () => {};
    return suiteReason === undefined ? { ...api, test } : { ...api, test, beforeAll: noHook, afterAll: noHook };
  }

  /** Registers, when there are skips, a test that fails for each one that named no suite or test. */
  registerStaleCheck(api: TestApi, suites: readonly string[]) {
    if (Object.keys(this.skip).length === 0) return;
    api.describe(`${this.runner}: contract kit`, () => {
      // Runs after every suite has registered its tests (Bun collects describes lazily).
      api.test("runStoreContracts() skip names only suites and tests of the kit", () => {
        const stale = Object.keys(this.skip).filter((what) => !this.#used.has(what));
        api.expect({ stale, suites }).toEqual({ stale: [], suites });
      });
    });
  }
}
