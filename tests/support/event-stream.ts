/** A small Server-Sent Events reader for tests: parses frames and waits (bounded) for one. */
export interface OpenStream {
  contentType: string | null;
  next(match: (event: any) => boolean, timeoutMs?: number): Promise<any>;
  ended(timeoutMs?: number): Promise<boolean>;
  close(): void;
}

export async function openEventStream(fetcher: (init: RequestInit) => Promise<Response>, key: string): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetcher({ headers: { "x-api-key": key, accept: "text/event-stream" }, signal: abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`event stream answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  const events: any[] = [];
  let buffer = "";
  let done = false;
  const waiters: Array<() => void> = [];
  (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += dec.decode(chunk.value, { stream: true });
        let i;
        while ((i = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const data = frame.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (data) events.push(JSON.parse(data));
        }
        waiters.splice(0).forEach((w) => w());
      }
    } catch {
      // aborted
    }
    done = true;
    waiters.splice(0).forEach((w) => w());
  })();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return {
    contentType: res.headers.get("content-type"),
    async next(match, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const idx = events.findIndex(match);
        if (idx >= 0) return events.splice(idx, 1)[0];
        if (done || Date.now() > deadline) {
          throw new Error(`no matching event within ${timeoutMs} ms (got ${events.map((e) => e.type).join(", ") || "none"})`);
        }
        await wait(deadline - Date.now());
      }
    },
    async ended(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!done && Date.now() < deadline) await wait(deadline - Date.now());
      return done;
    },
    close() {
      abort.abort();
    },
  };
}
