/**
 * SHA-256 of a file of the archive, lowercase hex. Every hashed file is whole in memory when it
 * is hashed (a data part is at most 8 MiB, a Markdown file one topic), so Web Crypto's one-shot
 * digest serves: on a loaded 2-core machine it hashed ~480 MB/s where the incremental JavaScript
 * SHA-256 (@oslojs/crypto) did ~27 MB/s, 40 s per pass over a 1 GiB archive.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
