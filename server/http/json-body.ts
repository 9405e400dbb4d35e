import { AppError, validationFailed } from "../../core/kernel/mod.ts";

/**
 * The one JSON body parser. Beyond `JSON.parse` it refuses text holding U+0000: no store can keep
 * it faithfully (PostgreSQL text cannot hold it at all), so it is a 400 at the edge, the same on
 * every backend, rather than a 500 from one of them. A body over `limitBytes` is a 413: a declared
 * length is refused before the body is read (app.ts), a chunked one here once read.
 */
export async function parseJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const text = new TextDecoder().decode(await readBoundedBody(request, limitBytes));
  if (!text.includes("\\u0000") && !text.includes("\0")) return JSON.parse(text);
  return JSON.parse(text, (key, value) => {
    if (key.includes("\0") || (typeof value === "string" && value.includes("\0"))) {
      throw validationFailed("Invalid request body: text must not contain NUL (U+0000) characters", [
        { path: key ? `body/${key}` : "body", message: "contains U+0000" },
      ]);
    }
    return value;
  });
}

/**
 * The body's bytes, read as they come and refused with 413 as soon as they pass `limitBytes`: a
 * chunked body declares no length, and Bun's own bound sits as far out as the largest upload
 * (IMPORT_LIMIT_BYTES), so reading it whole first would hold that much.
 */
export async function readBoundedBody(request: Request, limitBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `Request body too large: the limit is ${limitBytes} bytes`);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function isJson(contentType: string | undefined | null): boolean {
  return !!contentType && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
}
