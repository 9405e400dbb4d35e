/**
 * Where the files an anchor (a glob) can match live: the path before its first segment holding a
 * glob character. A store indexes topics by these bases, so finding the topics whose anchors may
 * match a file is a lookup of the file's ancestors, not a scan of every pattern.
 */
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

/** `src/billing/**\/*.ts` → `src/billing`; `**\/*.md` → ``; a literal path is its own base. */
export function anchorBase(pattern: string): string {
  const segments = pattern.split("/");
  // picomatch ignores a leading `./` (`./src/*.ts` matches `src/a.ts`): so does the base.
  while (segments.length > 1 && segments[0] === ".") segments.shift();
  const literal: string[] = [];
  for (const s of segments) {
    if (GLOB_CHARS.test(s)) return literal.join("/");
    literal.push(s);
  }
  return literal.join("/");
}

/** The distinct bases of a topic's anchors, sorted. */
export function anchorBases(anchors: readonly string[]): string[] {
  return [...new Set(anchors.map(anchorBase))].sort();
}

/** The bases an anchor matching `path` can have: the root, every ancestor directory, the path. */
export function baseCandidates(path: string): string[] {
  const parts = path.split("/");
  const out = [""];
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}
