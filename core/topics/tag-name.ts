// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Longest tag name accepted, after normalisation. */
export const MAX_TAG_LENGTH = 64;

/**
 * The one normal form of a tag name, applied everywhere a name enters (topic writes, tag
 * endpoints, filters): trimmed, lowercase, every run of whitespace one dash. Returns null when
 * nothing is left, the result is longer than MAX_TAG_LENGTH, or it holds a control character.
 */
export function normalizeTagName(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\s+/g, "-");
  if (name.length === 0 || name.length > MAX_TAG_LENGTH || CONTROL.test(name)) return null;
  return name;
}

/** Normalises a list, dropping duplicates that normalise alike; the first invalid name is reported. */
export function normalizeTagNames(raw: readonly string[]): { names: string[] } | { invalid: string } {
  const out = new Set<string>();
  for (const r of raw) {
    const n = normalizeTagName(r);
    if (n === null) return { invalid: r };
    out.add(n);
  }
  return { names: [...out] };
}
