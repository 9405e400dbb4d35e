import type { Principal } from "../access/mod.ts";
import { type Entity, normalizeDedupKey } from "../collections/mod.ts";
import { holdCredits, settleHold } from "../credits/mod.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { assertRunAllows, findRun, type ProspectKind, type RadarRun } from "../radar/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { EnrichResult } from "./dto.ts";
import { assertCanEnrich } from "./policy.ts";
import type { ContactDeps } from "./ports.ts";
import { DEFAULT_PRICES } from "./prices.ts";

/**
 * Enrichment (ADR 025): a completed run's results, or their companies, get the directory's full
 * profile in their entity's attributes (`profile`, with `enriched_at`). Held first (402 when
 * short), charged per hit; an entity enriched before is skipped for free; a miss is free. Two
 * concurrent enrichments of one entity charge once: the entity's compare-and-set merge lets one
 * of them set `enriched_at`, and the other counts it as skipped.
 */

const BATCH = 100;
const RESULT_PAGE = 500;

/** The entities a run wrote, in reading order. */
async function resultEntities(deps: ContactDeps, run: RadarRun): Promise<Entity[]> {
  const ids: string[] = [];
  for (let after = 0;;) {
    const page = await deps.stores.radarRuns.results(run.workspace_id, run.id, after, RESULT_PAGE);
    ids.push(...page.items.map((r) => r.entity_id));
    if (page.next === null) break;
    after = page.next;
  }
  const unique = [...new Set(ids)];
  const found: Entity[] = [];
  for (let i = 0; i < unique.length; i += 1_000) {
    found.push(...(await deps.stores.entities.getMany(run.workspace_id, unique.slice(i, i + 1_000))));
  }
  const byId = new Map(found.map((e) => [e.id, e]));
  return unique.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

const providerIdOf = (e: Entity, provider: string): string | null => {
  const ids = e.attributes.provider_ids as Record<string, string> | undefined;
  if (ids?.[provider]) return ids[provider]!;
  return e.kind === "person" && e.dedup_key?.startsWith(`${provider}:`) ? e.dedup_key.slice(provider.length + 1) : null;
};

/**
 * The employers of people, as company entities (upserted by domain, linked from each person by
 * `attributes.company_entity_id`).
 */
async function employersOf(deps: ContactDeps, people: Entity[]): Promise<Entity[]> {
  const provider = deps.prospects!.name;
  const companies = new Map<string, Entity>();
  for (const person of people) {
    const domain = person.attributes.company_domain;
    const employerId = (person.attributes.employer_ids as Record<string, string> | undefined)?.[provider];
    if (typeof domain !== "string" || domain === "") continue;
    const at = deps.clock.now().toISOString();
    const fresh: Entity = {
      id: uuidv7(Date.parse(at)),
      workspace_id: person.workspace_id,
      kind: "company",
      name: typeof person.attributes.company_name === "string" ? person.attributes.company_name : domain,
      dedup_key: domain,
      dedup_norm: normalizeDedupKey(domain),
      attributes: {
        name: person.attributes.company_name ?? domain,
        domain,
        ...(employerId ? { provider_ids: { [provider]: employerId } } : {}),
      },
      version: 1,
      created_at: at,
      updated_at: at,
    };
    const { entity } = await deps.stores.entities.upsert(fresh, (cur) => {
      const ids = {
        ...(cur.attributes.provider_ids as Record<string, string> | undefined),
        ...(employerId ? { [provider]: employerId } : {}),
      };
      if (JSON.stringify(ids) === JSON.stringify(cur.attributes.provider_ids ?? {})) return null;
      return { ...cur, attributes: { ...cur.attributes, provider_ids: ids }, version: cur.version + 1, updated_at: at };
    });
    companies.set(entity.id, entity);
    if (person.attributes.company_entity_id !== entity.id && person.dedup_norm) {
      await deps.stores.entities.upsert(
        person,
        (cur) =>
          cur.attributes.company_entity_id === entity.id
            ? null
            : { ...cur, attributes: { ...cur.attributes, company_entity_id: entity.id }, version: cur.version + 1, updated_at: at },
      );
    }
  }
  return [...companies.values()];
}

/** Enriches entities of one kind: skips the enriched, holds the rest's price, captures the hits. */
async function enrichEntities(
  deps: ContactDeps,
  ws: Workspace,
  runId: string,
  kind: ProspectKind,
  entities: Entity[],
): Promise<EnrichResult> {
  const directory = deps.prospects!;
  const prices = deps.radarPrices ?? DEFAULT_PRICES;
  const unit = kind === "company" ? prices.company_enrichment : prices.person_enrichment;
  const todo = entities.filter((e) => e.kind === kind && !e.attributes.enriched_at && providerIdOf(e, directory.name));
  let skipped = entities.length - todo.length;
  const holdId = todo.length > 0 && unit > 0
    ? await holdCredits(deps, ws.id, todo.length * unit, { run_id: runId, reason: `radar ${kind} enrichment` })
    : null;
  let enriched = 0;
  let missed = 0;
  try {
    for (let i = 0; i < todo.length; i += BATCH) {
      const batch = todo.slice(i, i + BATCH);
      const answers = await directory.enrich(kind, batch.map((e) => providerIdOf(e, directory.name)!));
      for (const [j, answer] of answers.entries()) {
        const e = batch[j]!;
        if (!answer.profile) {
          missed++;
          continue;
        }
        const at = deps.clock.now().toISOString();
        let mine = false;
        await deps.stores.entities.upsert(e, (cur) => {
          mine = false;
          if (cur.attributes.enriched_at) return null;
          mine = true;
          return {
            ...cur,
            attributes: { ...cur.attributes, profile: answer.profile, enriched_at: at },
            version: cur.version + 1,
            updated_at: at,
          };
        });
        if (mine) enriched++;
        else skipped++;
      }
    }
  } finally {
    if (holdId) await settleHold(deps, ws.id, holdId, enriched * unit, { run_id: runId, reason: `radar ${kind} enrichment` });
  }
  return { enriched, skipped, missed, charged_credits: enriched * unit };
}

/**
 * `POST …/runs/{runId}/enrich` (the run's results) and `…/enrich/companies` (their companies: a
 * company run's results, a person run's employers, upserted and linked). The run must be completed.
 */
export async function enrichRun(
  deps: ContactDeps,
  p: Principal,
  ws: Workspace,
  runId: string,
  what: "results" | "companies",
): Promise<EnrichResult> {
  assertCanEnrich(p);
  const run = await findRun(deps, ws, runId);
  assertRunAllows(run, "enrich");
  if (!deps.prospects) return { enriched: 0, skipped: 0, missed: 0, charged_credits: 0 };
  const results = await resultEntities(deps, run);
  const kind: ProspectKind = what === "companies" ? "company" : run.kind;
  const entities = what === "companies" && run.kind === "person" ? await employersOf(deps, results) : results;
  const answer = await enrichEntities(deps, ws, run.id, kind, entities);
  await emit(deps, ws.id, "radar.enriched", p, { run_id: run.id, kind, ...answer });
  return answer;
}
