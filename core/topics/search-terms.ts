/**
 * The one tokenizer of topic search, shared by every store so that all backends find the same
 * topics: accents folded, lowercase, runs of letters and digits. No stemming and no stop words
 * (PostgreSQL is given these same terms under its `simple` configuration).
 */
export const MAX_QUERY_TERMS = 8;
export const MAX_TERM_LENGTH = 64;

const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  const folded = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const out: string[] = [];
  for (const m of folded.matchAll(WORD)) {
    const term = m[0];
    if (term.length <= MAX_TERM_LENGTH) out.push(term);
  }
  return out;
}

/** Distinct terms of a text, in first-seen order. */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/** The terms a topic is found by, per field: what stores index. */
export interface TopicTerms {
  title: string[];
  tags: string[];
  body: string[];
}

export function topicTerms(t: { title: string; tags: readonly string[]; body: string }): TopicTerms {
  return { title: distinctTerms(t.title), tags: distinctTerms(t.tags.join(" ")), body: distinctTerms(t.body) };
}

/** Every distinct term of a topic, whichever field holds it. */
export function allTerms(terms: TopicTerms): string[] {
  return [...new Set([...terms.title, ...terms.tags, ...terms.body])];
}
