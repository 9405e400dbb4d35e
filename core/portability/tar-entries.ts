import { createTarDecoder, type ParsedTarEntry } from "modern-tar";

/**
 * The entries of a gzip'd tar, one at a time: the caller reads or cancels each entry's body
 * before asking for the next (the decoder holds back the rest of the stream meanwhile, so
 * memory stays at one entry). The tar stream is cut off past `maxTarBytes`: a small gzip may
 * expand to terabytes.
 */
export async function forEachTarEntry(
  gz: ReadableStream<Uint8Array>,
  maxTarBytes: number,
  fn: (entry: ParsedTarEntry) => Promise<void>,
): Promise<void> {
  const entries = gz
    .pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)
    .pipeThrough(byteLimit(maxTarBytes))
    .pipeThrough(createTarDecoder({ strict: true }));
  const reader = entries.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await fn(value);
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function byteLimit(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(new Error(`it expands to more than ${max} bytes`));
      else controller.enqueue(chunk);
    },
  });
}

/** An entry's whole body, which the header says is `size` bytes (the caller checked the size is bounded). */
export async function readBody(body: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.byteLength > size) throw new Error("an entry is longer than its header says");
      out.set(value, at);
      at += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  if (at !== size) throw new Error("an entry is shorter than its header says");
  return out;
}

/** Each line of an NDJSON text with its 1-based number; a last line without its newline counts too. */
export function* ndjsonLines(text: string): Generator<[number, string]> {
  let n = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    yield [++n, text.slice(start, stop)];
    start = stop + 1;
  }
}
