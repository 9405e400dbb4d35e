import type { ContactDetails, Prospect, ProspectKind, ProspectQuery } from "./prospect.ts";

/** One page of a search: `cursor` fetches the next, null on the last page. */
export interface ProspectPage {
  items: Prospect[];
  /** How many prospects match the whole query. */
  total: number;
  cursor: string | null;
}

/** An enriched profile, or null for a miss (a miss is free). */
export interface Enrichment {
  id: string;
  profile: Record<string, unknown> | null;
}

/**
 * Where radar finds companies and people (docs/decisions/022-prospect-directory.md). Two adapters:
 * a generated sample with no network (adapters/radar-sample/, the default) and People Data Labs
 * (adapters/pdl/). Failures throw a `ProspectDirectoryError`; a miss is not a failure.
 */
export interface ProspectDirectory {
  /** The provider's name: results' `<provider>:<id>` keys and `radar:<provider>` sources use it. */
  readonly name: string;
  /** How many prospects match. */
  count(query: ProspectQuery): Promise<number>;
  /**
   * A page of at most `size` (1–100) matches, in the directory's stable order; pass the previous
   * page's `cursor` for the next. A cursor belongs to its query.
   */
  search(query: ProspectQuery, page: { size: number; cursor?: string | null }): Promise<ProspectPage>;
  /** Profiles of up to 100 prospects of one kind by id, one answer per id in order. */
  enrich(kind: ProspectKind, ids: string[]): Promise<Enrichment[]>;
  /** A person's e-mail, phone and LinkedIn URL; null when the directory does not know the person. */
  contacts(personId: string): Promise<ContactDetails | null>;
}

/** Why a directory failed. */
export const PROSPECT_DIRECTORY_FAILURES = ["unauthorized", "rate_limited", "bad_request", "unsupported_filter", "unavailable"] as const;
export type ProspectDirectoryFailure = (typeof PROSPECT_DIRECTORY_FAILURES)[number];

/** The typed error of a `ProspectDirectory`; `message` is safe to show (no credentials). */
export class ProspectDirectoryError extends Error {
  readonly reason: ProspectDirectoryFailure;
  constructor(reason: ProspectDirectoryFailure, message: string) {
    super(message);
    this.name = "ProspectDirectoryError";
    this.reason = reason;
  }
}
