import {
  type Enrichment,
  type Prospect,
  type ProspectDirectory,
  ProspectDirectoryError,
  type ProspectPage,
  type ProspectQuery,
} from "../../core/radar/mod.ts";
import { createPdlClient, type PdlClientOptions } from "./client.ts";
import { pdlQuery } from "./query.ts";
import { companyProspect, contactDetails, personProspect } from "./records.ts";

type PdlRecord = Record<string, unknown>;

/**
 * Our cursor: how many results the pages so far held, and PDL's `scroll_token` for the next. PDL
 * may hand a token with the last page; counting lets the last page say `cursor: null`.
 */
function readCursor(cursor: string | null | undefined): { seen: number; token: string | null } {
  if (cursor === null || cursor === undefined) return { seen: 0, token: null };
  const m = /^(\d{1,9}):(.+)$/s.exec(cursor);
  if (!m) throw new ProspectDirectoryError("bad_request", "Invalid cursor");
  return { seen: Number(m[1]), token: m[2]! };
}

/**
 * `RADAR_PROVIDER=pdl`: People Data Labs v5 (docs/decisions/022-prospect-directory.md).
 * Search: `POST /v5/{company,person}/search` with an Elasticsearch `query`; a search matching
 * nothing is PDL's 404. Enrichment: `POST /v5/person/bulk` (up to 100 `{params}`), and
 * `GET /v5/company/enrich` one company at a time. Contacts: `GET /v5/person/enrich`.
 */
export function createPdlDirectory(options: PdlClientOptions): ProspectDirectory {
  const pdl = createPdlClient(options);

  async function page(query: ProspectQuery, size: number, cursor: string | null | undefined): Promise<ProspectPage> {
    if (!Number.isInteger(size) || size < 1 || size > 100) {
      throw new ProspectDirectoryError("bad_request", "size must be an integer from 1 to 100");
    }
    const { seen, token } = readCursor(cursor);
    const body = { query: pdlQuery(query), size, ...(token ? { scroll_token: token } : {}) };
    const res = await pdl.request("POST", `/v5/${query.kind}/search`, { body });
    if (res.status === 404) return { items: [], total: 0, cursor: null };
    const b = res.body as { data?: PdlRecord[]; total?: number; scroll_token?: string | null };
    const data = Array.isArray(b.data) ? b.data : [];
    const total = typeof b.total === "number" ? b.total : seen + data.length;
    const now = seen + data.length;
    const next = data.length > 0 && now < total && b.scroll_token ? `${now}:${b.scroll_token}` : null;
    const toProspect = (r: PdlRecord): Prospect => (query.kind === "company" ? companyProspect(r) : personProspect(r));
    return { items: data.map(toProspect), total, cursor: next };
  }

  return {
    name: "pdl",
    async count(query) {
      // PDL has no free count: the smallest page (one record) carries `total`.
      return (await page(query, 1, null)).total;
    },
    search: (query, p) => page(query, p.size, p.cursor),
    async enrich(kind, ids) {
      if (ids.length > 100) throw new ProspectDirectoryError("bad_request", "At most 100 ids per enrichment");
      if (ids.length === 0) return [];
      if (kind === "person") {
        const res = await pdl.request("POST", "/v5/person/bulk", { body: { requests: ids.map((id) => ({ params: { pdl_id: id } })) } });
        const answers = Array.isArray(res.body) ? (res.body as PdlRecord[]) : [];
        if (answers.length !== ids.length) {
          throw new ProspectDirectoryError("unavailable", "People Data Labs answered a bulk enrichment with the wrong count");
        }
        return ids.map((id, i): Enrichment => ({ id, profile: answers[i]!.status === 200 ? (answers[i]!.data as PdlRecord) : null }));
      }
      const out: Enrichment[] = [];
      for (const id of ids) {
        const res = await pdl.request("GET", "/v5/company/enrich", { params: { pdl_id: id } });
        if (res.status === 404) {
          out.push({ id, profile: null });
          continue;
        }
        // The company answer is flat: the record beside `status` and `likelihood`.
        const { status: _s, likelihood: _l, ...profile } = res.body as PdlRecord;
        out.push({ id, profile });
      }
      return out;
    },
    async contacts(personId) {
      const res = await pdl.request("GET", "/v5/person/enrich", { params: { pdl_id: personId } });
      if (res.status === 404) return null;
      return contactDetails(((res.body as PdlRecord).data ?? {}) as PdlRecord);
    },
  };
}
