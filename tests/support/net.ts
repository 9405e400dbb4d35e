/** Small network helpers: a free TCP port and waiting for an HTTP endpoint. */

/** Asks the kernel for a free port on 127.0.0.1 (closed again before returning). */
export function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/**
 * `launch` on a free port, again on another if it fails: a port found free may be taken by the
 * time the server binds it. The last failure is thrown after `attempts`.
 */
export async function onFreePort<T>(launch: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await launch(freePort());
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}

/** Polls `url` until it answers `expectedStatus`, or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number, expectedStatus = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === expectedStatus) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer ${expectedStatus} within ${timeoutMs} ms: last ${last}`);
}
