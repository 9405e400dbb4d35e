/** Topic slugs: lowercase letters, digits and single dashes, 1 to 80 characters. */
export const TOPIC_SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
export const MAX_TOPIC_SLUG_LENGTH = 80;

/**
 * Derives a slug from a title: accents folded (é → e), anything not a letter or digit becomes a
 * dash, runs collapsed, trimmed, cut at a dash boundary within the maximum. A title with nothing
 * usable yields `topic`.
 */
export function slugFromTitle(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!base) return "topic";
  if (base.length <= MAX_TOPIC_SLUG_LENGTH) return base;
  const cut = base.slice(0, MAX_TOPIC_SLUG_LENGTH);
  const lastDash = cut.lastIndexOf("-");
  return (lastDash > 0 ? cut.slice(0, lastDash) : cut).replace(/-+$/, "");
}

/** The n-th candidate when a derived slug is taken: `slug`, `slug-2`, `slug-3`, ... within the maximum. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, MAX_TOPIC_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
}

/**
 * Words the topic routes use as fixed sub-paths (`/topics/search`, `/topics/events`, ...): a topic
 * with such a slug could never be addressed, so none may have one.
 */
export const RESERVED_TOPIC_SLUGS: ReadonlySet<string> = new Set([
  "search",
  "events",
  "proposals",
  "graph",
  "graph-full",
  "match-files",
  "retrieve",
  "mark-drift",
  "audit",
  "import",
]);
