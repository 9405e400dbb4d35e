/**
 * Entity keys. Upserts match on the normalised `dedup_key` (Unicode NFKC, trimmed, inner
 * whitespace folded to one space, lower-cased), so `Acme.com ` and `acme.com` are one entity.
 * The doctor also compares a looser form, which strips what commonly differs between two writers
 * of the same thing (a URL scheme, `www.`, punctuation, a trailing slash), to find likely
 * duplicates no upsert would merge by itself.
 */
export function normalizeDedupKey(key: string): string {
  return key.normalize("NFKC").trim().replace(/\s+/gu, " ").toLowerCase();
}

export function normalizeKind(kind: string): string {
  return kind.normalize("NFKC").trim().toLowerCase();
}

export function looseKey(key: string): string {
  return normalizeDedupKey(key)
    .replace(/^[a-z][a-z0-9+.-]*:\/\//u, "")
    .replace(/^www\./u, "")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}
