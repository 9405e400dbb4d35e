import { AppError, validationFailed } from "../../core/kernel/mod.ts";

/**
 * The one JSON body parser. Beyond `JSON.parse` it refuses text holding U+0000: no store can keep
 * it faithfully (PostgreSQL text cannot hold it at all), so it is a 400 at the edge, the same on
 * every backend, rather than a 500 from one of them. A body over `limitBytes` is a 413: a declared
 * length is refused before the body is read (app.ts), a chunked one here once read.
 */
export async function parseJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > limitBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", `Request body too large: the limit is ${limitBytes} bytes`);
  }
  const text = new TextDecoder().decode(bytes);
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

export function isJson(contentType: string | undefined | null): boolean {
  return !!contentType && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
}
