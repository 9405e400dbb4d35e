/**
 * The part of Elasticsearch's query DSL a PDL protocol server needs to answer searches, evaluated
 * on one JSON record as Elasticsearch would on a keyword-mapped, lower-case index: `match_all`,
 * `bool` (`must`, `filter`, `should` with `minimum_should_match`, `must_not`), `term`, `terms`,
 * `range`, `match` (operator `or`/`and`) and `exists`. A dotted field reaches into objects; an
 * array matches when any element does. Anything else throws, which the server answers with 400.
 */
type Json = Record<string, unknown>;

function valuesAt(record: unknown, path: string[]): unknown[] {
  if (Array.isArray(record)) return record.flatMap((r) => valuesAt(r, path));
  if (path.length === 0) return record === null || record === undefined ? [] : [record];
  if (!record || typeof record !== "object") return [];
  return valuesAt((record as Json)[path[0]!], path.slice(1));
}
const values = (record: Json, field: string) => valuesAt(record, field.split("."));
const norm = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
const tokens = (v: unknown) => String(v).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

function only(clause: unknown, what: string): [string, unknown] {
  const entries = Object.entries(clause as Json);
  if (entries.length !== 1) throw new Error(`${what} takes one field`);
  return entries[0]!;
}

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function matchesQuery(query: unknown, record: Json): boolean {
  const [type, body] = only(query, "a query");
  switch (type) {
    case "match_all":
      return true;
    case "bool": {
      const b = body as Json;
      for (const key of Object.keys(b)) {
        if (!["must", "filter", "should", "must_not", "minimum_should_match"].includes(key)) {
          throw new Error(`bool.${key} is not supported`);
        }
      }
      const must = [...list(b.must), ...list(b.filter)];
      if (!must.every((q) => matchesQuery(q, record))) return false;
      if (list(b.must_not).some((q) => matchesQuery(q, record))) return false;
      const should = list(b.should);
      const least = typeof b.minimum_should_match === "number" ? b.minimum_should_match : must.length === 0 && should.length > 0 ? 1 : 0;
      return should.filter((q) => matchesQuery(q, record)).length >= least;
    }
    case "term": {
      const [field, v] = only(body, "term");
      const wanted = v && typeof v === "object" ? (v as Json).value : v;
      return values(record, field).some((x) => norm(x) === norm(wanted));
    }
    case "terms": {
      const [field, v] = only(body, "terms");
      if (!Array.isArray(v)) throw new Error("terms takes a list");
      const wanted = new Set(v.map(norm));
      return values(record, field).some((x) => wanted.has(norm(x)));
    }
    case "range": {
      const [field, r] = only(body, "range");
      const { gte, gt, lte, lt } = r as Record<string, number | undefined>;
      return values(record, field).some((x) =>
        typeof x === "number" && (gte === undefined || x >= gte) && (gt === undefined || x > gt) && (lte === undefined || x <= lte) &&
        (lt === undefined || x < lt)
      );
    }
    case "match": {
      const [field, m] = only(body, "match");
      const { query: text, operator } = m && typeof m === "object"
        ? (m as { query: string; operator?: string })
        : { query: m, operator: "or" };
      const wanted = tokens(text);
      return values(record, field).some((x) => {
        const have = new Set(tokens(x));
        return String(operator).toLowerCase() === "and" ? wanted.every((w) => have.has(w)) : wanted.some((w) => have.has(w));
      });
    }
    case "exists":
      return values(record, String((body as Json).field)).length > 0;
    default:
      throw new Error(`${type} queries are not supported`);
  }
}
