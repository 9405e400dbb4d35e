// Waiting without a runtime's own API (Bun.sleep), so the suites load under Deno too.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `timeoutMs` passes. */
export async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
}
