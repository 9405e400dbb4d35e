import type { Principal } from "../access/mod.ts";
import { type Collection, collectionNotFound, type CollectionRecord, type Entity } from "../collections/mod.ts";
import { emit } from "../events/mod.ts";
import { notFound } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { ContactDetails } from "../radar/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { ContactQuote, EnrichContactsDto, UnlockContactsDto, UnlockedContacts } from "./dto.ts";
import type { ContactKind, ContactUnlock } from "./model.ts";
import { DEFAULT_PRICES, type PriceTable } from "./prices.ts";
import { insufficientCredits } from "../credits/mod.ts";
import { assertCanUnlockContacts } from "./policy.ts";
import type { ContactDeps, UnlockClaim, UnlockRecordWrite } from "./ports.ts";
import { contactRecordWrite, type ContactValues } from "./unlock-records.ts";
import { unlockExpired, unlockLeaseMs } from "./unlock-holds.ts";
import { unlockDone, unlockWait } from "./unlock-waits.ts";

/**
 * Contact paths: a person's e-mail, phone and LinkedIn URL, quoted for free and
 * unlocked for credits, each (entity, kind) charged once, forever, across collections
 * (docs/decisions/025-contact-paths-and-enrichment.md). The unlock holds the total and claims its
 * keys in one store write before asking the directory, then settles the keys and captures the
 * hits (releasing the rest) in another (docs/decisions/041-unlock-in-two-writes.md). Every record
 * of the request whose person has a path unlocked shows its value, the records a request pays
 * for in the same write as the capture (docs/decisions/056-contact-values-on-every-record.md).
 * The hold and the claims are the request's for its lease: past it, they are taken for a dead
 * request's, taken over by another unlock of the same keys or resolved by the sweep (ADR 055).
 */
/** How long an unlock waits for another request's pending claim of the same key to settle (clock time). */
export const UNLOCK_WAIT_MS = 10_000;
/**
 * The longest an unlock waits between two reads of a key another request holds: what a holder in
 * another process (which cannot wake it) may cost it; a holder in this process wakes it at once.
 */
export const UNLOCK_RECHECK_MS = 50;

const FIELD_OF: Record<ContactKind, keyof ContactDetails> = { email: "email", phone: "phone", linkedin: "linkedin_url" };
const priceOf = (prices: PriceTable, kind: ContactKind) => prices[kind];

interface Target {
  record: CollectionRecord;
  /** The person behind the record, with the directory's id for them; null: nothing to unlock. */
  person: { entity: Entity; providerId: string } | null;
}

/** What a quote or unlock works from: the collection, its targets, and their unlocks by key. */
interface Context {
  c: Collection;
  targets: Target[];
  unlocks: Map<string, ContactUnlock>;
}

/**
 * The collection (else 404), the records asked for (all of them in it, else 404), the person each
 * is and the unlocks of those people: one store read (`ContactUnlockStore.unlockContext`).
 */
async function contextOf(deps: ContactDeps, ws: Workspace, collectionId: string, recordIds: readonly string[]): Promise<Context> {
  const read = await deps.stores.contactUnlocks.unlockContext(ws.id, collectionId, recordIds);
  if (!read) throw collectionNotFound();
  if (read.records.length !== new Set(recordIds).size) throw notFound("Record");
  const byId = new Map(read.records.map((r) => [r.id, r]));
  const entities = new Map(read.entities.map((e) => [e.id, e]));
  const directory = deps.prospects?.name ?? null;
  const targets = recordIds.map((id): Target => {
    const record = byId.get(id)!;
    const entity = record.entity_id ? entities.get(record.entity_id) : undefined;
    if (!entity || entity.kind !== "person" || !directory) return { record, person: null };
    const ids = entity.attributes.provider_ids as Record<string, string> | undefined;
    const fromKey = entity.dedup_key?.startsWith(`${directory}:`) ? entity.dedup_key.slice(directory.length + 1) : null;
    const providerId = ids?.[directory] ?? fromKey;
    return { record, person: providerId ? { entity, providerId } : null };
  });
  // Only the people's unlocks count (a record's entity that is not a person unlocks nothing).
  const people = new Set(targets.flatMap((t) => (t.person ? [t.person.entity.id] : [])));
  const unlocks = new Map(read.unlocks.filter((u) => people.has(u.entity_id)).map((u) => [keyOf(u.entity_id, u.kind), u]));
  return { c: read.collection, targets, unlocks };
}

const keyOf = (entityId: string, kind: ContactKind) => `${entityId}:${kind}`;

/** What unlocking would cost: per record and kind, and in total (each entity and kind once). Charges nothing. */
export async function quoteContacts(deps: ContactDeps, ws: Workspace, collectionId: string, dto: EnrichContactsDto): Promise<ContactQuote> {
  const { targets, unlocks } = await contextOf(deps, ws, collectionId, dto.record_ids);
  const prices = deps.radarPrices ?? DEFAULT_PRICES;
  const counted = new Set<string>();
  let total = 0;
  const items: ContactQuote["items"] = [];
  for (const t of targets) {
    for (const kind of dto.kinds) {
      if (!t.person) {
        items.push({ record_id: t.record.id, kind, state: "unavailable", credits: 0 });
        continue;
      }
      const u = unlocks.get(keyOf(t.person.entity.id, kind));
      if (u?.state === "unlocked") items.push({ record_id: t.record.id, kind, state: "unlocked", credits: 0 });
      else if (u?.state === "unavailable") items.push({ record_id: t.record.id, kind, state: "unavailable", credits: 0 });
      else {
        const credits = priceOf(prices, kind);
        const key = keyOf(t.person.entity.id, kind);
        if (!counted.has(key)) total += credits;
        counted.add(key);
        items.push({ record_id: t.record.id, kind, state: "available", credits });
      }
    }
  }
  return { items, total_credits: total };
}

/**
 * Waits for a claim another request holds (`holder`, its token) to settle, until `UNLOCK_WAIT_MS`
 * have passed on the clock: woken by the holder when it is done, in this process, else by a re-read
 * at least every `UNLOCK_RECHECK_MS` (unlock-waits.ts). A claim taken over meanwhile is followed to
 * its new holder. Null: still not settled at the deadline.
 */
async function settled(
  deps: ContactDeps,
  ws: Workspace,
  entityId: string,
  kind: ContactKind,
  holder: string,
): Promise<ContactUnlock | null> {
  const deadline = deps.clock.now().getTime() + UNLOCK_WAIT_MS;
  for (;;) {
    const wait = unlockWait(ws.id, holder);
    const [u] = (await deps.stores.contactUnlocks.unlocksOf(ws.id, [entityId])).filter((x) => x.kind === kind);
    const left = deadline - deps.clock.now().getTime();
    if ((u && u.state !== "pending") || left <= 0) {
      wait.cancel();
      return u && u.state !== "pending" ? u : null;
    }
    if (u && u.token !== holder) {
      wait.cancel();
      holder = u.token;
      continue;
    }
    await wait.until(Math.min(left, UNLOCK_RECHECK_MS));
  }
}

/** A key's state once this request is done with it: its own outcome, as it stood, or as another request settled it. */
type Final = { state: ContactUnlock["state"]; value: string | null } | null;

/**
 * The records of the request that show values this request pays for, to be written with the
 * capture: per record (once), the values of the keys `paid` settled unlocked (its `needs`) and of
 * those unlocked before (nothing to wait for), where its schema admits them.
 */
function paidRecordWrites(
  c: Collection,
  targets: readonly Target[],
  kinds: readonly ContactKind[],
  paid: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, ContactUnlock>,
  at: string,
): UnlockRecordWrite[] {
  const out: UnlockRecordWrite[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    if (!t.person || seen.has(t.record.id)) continue;
    seen.add(t.record.id);
    const values: ContactValues = {};
    const needs: string[] = [];
    for (const kind of kinds) {
      const key = keyOf(t.person.entity.id, kind);
      const before = known.get(key);
      const value = paid.get(key) ?? (before?.state === "unlocked" ? before.value : null);
      if (value === null || value === undefined) continue;
      values[FIELD_OF[kind]] = value;
      if (paid.has(key)) needs.push(key);
    }
    const write = needs.length > 0 ? contactRecordWrite(c, t.record, values, at) : null;
    if (write) out.push({ write, needs });
  }
  return out;
}

/** Shows `values` on the record (re-read after a concurrent change), where its schema admits them. */
async function keepOnRecord(deps: ContactDeps, c: Collection, first: CollectionRecord, values: ContactValues) {
  for (let attempt = 0; attempt < 5; attempt++) {
    // The record as this request last knew it; read again only after a concurrent change.
    const cur = attempt === 0 ? first : await deps.stores.records.get(c.workspace_id, c.id, first.id);
    if (!cur) return;
    const write = contactRecordWrite(c, cur, values, deps.clock.now().toISOString());
    if (!write || (await deps.stores.records.update(write)) !== "version_conflict") return;
  }
}

/**
 * Keeps `values` in the person's entity attributes, by compare-and-set of the entity as read first
 * (it exists: the record links it); read again only after a concurrent change (another request's
 * unlock of another kind of the same person).
 */
async function keepOnEntity(deps: ContactDeps, first: Entity, values: ContactValues) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const cur = attempt === 0 ? first : await deps.stores.entities.get(first.workspace_id, first.id);
    if (!cur || Object.entries(values).every(([k, v]) => cur.attributes[k] === v)) return;
    const next = {
      ...cur,
      attributes: { ...cur.attributes, ...values },
      version: cur.version + 1,
      updated_at: deps.clock.now().toISOString(),
    };
    if ((await deps.stores.entities.update(next)) !== "version_conflict") return;
  }
}

/**
 * Every record of the request shows the values its person has unlocked, whoever paid for them and
 * when (a record the finish wrote only if a value came later: one another request settled), and
 * each person's entity keeps them.
 */
async function showValues(
  deps: ContactDeps,
  c: Collection,
  targets: readonly Target[],
  kinds: readonly ContactKind[],
  final: ReadonlyMap<string, Final>,
  current: ReadonlyMap<string, CollectionRecord>,
) {
  const people = new Map<string, { entity: Entity; values: ContactValues }>();
  const done = new Set<string>();
  for (const t of targets) {
    if (!t.person) continue;
    const values: ContactValues = {};
    for (const kind of kinds) {
      const u = final.get(keyOf(t.person.entity.id, kind));
      if (u?.state === "unlocked" && u.value !== null) values[FIELD_OF[kind]] = u.value;
    }
    if (Object.keys(values).length === 0) continue;
    if (!done.has(t.record.id)) {
      done.add(t.record.id);
      await keepOnRecord(deps, c, current.get(t.record.id) ?? t.record, values);
    }
    const person = people.get(t.person.entity.id) ?? { entity: t.person.entity, values: {} };
    Object.assign(person.values, values);
    people.set(t.person.entity.id, person);
  }
  for (const { entity, values } of people.values()) await keepOnEntity(deps, entity, values);
}

/** What one key of an unlock came to in this request. */
type Outcome = { status: "unlocked" | "already_unlocked" | "unavailable"; credits: number; value: string | null };

/** The keys an unlock may claim (none yet, or pending), each once, in request order. */
function freshKeys(
  targets: Target[],
  kinds: ContactKind[],
  known: Map<string, ContactUnlock>,
): Map<string, { t: Target; kind: ContactKind }> {
  const fresh = new Map<string, { t: Target; kind: ContactKind }>();
  for (const t of targets) {
    for (const kind of kinds) {
      if (!t.person) continue;
      const key = keyOf(t.person.entity.id, kind);
      const u = known.get(key);
      if ((!u || u.state === "pending") && !fresh.has(key)) fresh.set(key, { t, kind });
    }
  }
  return fresh;
}

/** The keys this request claimed, by person (one lookup each). */
type Mine = Map<string, Array<{ key: string; kind: ContactKind; t: Target }>>;

/** A key this request claims, pending until its lookup settles it. */
const pendingClaim = (ws: Workspace, f: { t: Target; kind: ContactKind }, token: string, at: string): ContactUnlock => ({
  workspace_id: ws.id,
  entity_id: f.t.person!.entity.id,
  kind: f.kind,
  state: "pending",
  value: null,
  credits: 0,
  token,
  claimed_at: at,
  settled_at: null,
});

/**
 * The begin's answer, key by key: what this request claimed (by person), the requests that died
 * holding keys it took over, and (into `known`) the unlocks of keys another request holds.
 */
function sortClaims(
  wanted: Array<[string, { t: Target; kind: ContactKind }]>,
  claims: UnlockClaim[],
  known: Map<string, ContactUnlock>,
): { mine: Mine; deadTokens: Set<string> } {
  const mine: Mine = new Map();
  const deadTokens = new Set<string>();
  for (const [i, [key, f]] of wanted.entries()) {
    const r = claims[i]!;
    if (r.claimed) {
      const list = mine.get(f.t.person!.providerId) ?? [];
      list.push({ key, kind: f.kind, t: f.t });
      mine.set(f.t.person!.providerId, list);
      if (r.took_over) deadTokens.add(r.took_over);
    } else known.set(key, r.existing);
  }
  return { mine, deadTokens };
}

/**
 * Asks the directory once per person whose keys this request claimed, pushing each key's settle
 * into `settles` as it goes: when a lookup fails, what was looked up before it is still settled.
 */
async function lookUp(
  deps: ContactDeps,
  ws: Workspace,
  mine: Mine,
  prices: PriceTable,
  claim: { token: string; at: string },
  settles: ContactUnlock[],
): Promise<void> {
  const settledAt = deps.clock.now().toISOString();
  for (const [providerId, keys] of mine) {
    const details = await deps.prospects!.contacts(providerId);
    for (const k of keys) {
      const value = details?.[FIELD_OF[k.kind]] ?? null;
      settles.push({
        workspace_id: ws.id,
        entity_id: k.t.person!.entity.id,
        kind: k.kind,
        state: value === null ? "unavailable" : "unlocked",
        value,
        credits: value === null ? 0 : priceOf(prices, k.kind),
        token: claim.token,
        claimed_at: claim.at,
        settled_at: settledAt,
      });
    }
  }
}

/** Each key as the request leaves it: its own outcome, as it stood, or as the request that held it settled it (waited for). */
async function finalStates(
  deps: ContactDeps,
  ws: Workspace,
  targets: Target[],
  kinds: ContactKind[],
  outcome: Map<string, Outcome>,
  known: Map<string, ContactUnlock>,
): Promise<Map<string, Final>> {
  const final = new Map<string, Final>();
  for (const t of targets) {
    for (const kind of kinds) {
      if (!t.person) continue;
      const key = keyOf(t.person.entity.id, kind);
      if (final.has(key)) continue;
      const mineNow = outcome.get(key);
      const held = known.get(key);
      let u: Final | undefined = mineNow
        ? { state: mineNow.status === "unlocked" ? "unlocked" : "unavailable", value: mineNow.value }
        : held;
      if (!mineNow && held?.state === "pending") u = await settled(deps, ws, t.person.entity.id, kind, held.token);
      final.set(key, u ?? null);
    }
  }
  return final;
}

/** Every item: this request's outcome for the first of a key, already unlocked (or unavailable) otherwise. */
function answerItems(
  targets: Target[],
  kinds: ContactKind[],
  outcome: Map<string, Outcome>,
  final: Map<string, Final>,
): UnlockedContacts["items"] {
  const answered = new Set<string>();
  const items: UnlockedContacts["items"] = [];
  for (const t of targets) {
    for (const kind of kinds) {
      if (!t.person) {
        items.push({ record_id: t.record.id, kind, status: "unavailable", credits: 0, value: null });
        continue;
      }
      const key = keyOf(t.person.entity.id, kind);
      const mineNow = outcome.get(key);
      if (mineNow && !answered.has(key)) {
        answered.add(key);
        items.push({ record_id: t.record.id, kind, ...mineNow });
        continue;
      }
      const u = final.get(key);
      if (u?.state === "unlocked") items.push({ record_id: t.record.id, kind, status: "already_unlocked", credits: 0, value: u.value });
      else items.push({ record_id: t.record.id, kind, status: "unavailable", credits: 0, value: null });
    }
  }
  return items;
}

/**
 * Unlocks contact paths: holds what the new ones could cost (402 when short: nothing claimed or
 * charged), claims each (entity, kind) once, asks the directory once per person, captures the
 * hits and releases the rest. A key another request holds is waited for: `already_unlocked`.
 */
export async function unlockContacts(
  deps: ContactDeps,
  p: Principal,
  ws: Workspace,
  collectionId: string,
  dto: UnlockContactsDto,
): Promise<UnlockedContacts> {
  assertCanUnlockContacts(p);
  const { c, targets, unlocks: known } = await contextOf(deps, ws, collectionId, dto.record_ids);
  const prices = deps.radarPrices ?? DEFAULT_PRICES;
  const now = deps.clock.now();
  const at = now.toISOString();
  const token = uuidv7(now.getTime());
  const leaseMs = unlockLeaseMs(deps);

  const fresh = freshKeys(targets, dto.kinds, known);
  const total = [...fresh.values()].reduce((n, f) => n + priceOf(prices, f.kind), 0);
  const reason = "contact unlock";

  // One write holds the total and claims each new key (402 when short: nothing held or claimed);
  // then one directory lookup per person whose keys this request holds.
  const wanted = [...fresh];
  const begun = wanted.length === 0 ? null : await deps.stores.contactUnlocks.beginUnlocks(
    wanted.map(([, f]): ContactUnlock => pendingClaim(ws, f, token, at)),
    total > 0 ? { amount: total, reason, lease_until: new Date(now.getTime() + leaseMs).toISOString() } : null,
    new Date(now.getTime() - leaseMs).toISOString(),
  );
  if (begun && !begun.ok) {
    unlockDone(ws.id, token);
    throw begun.reason === "insufficient" ? insufficientCredits(begun.required, begun.available) : unlockExpired(leaseMs);
  }

  const outcome = new Map<string, Outcome>();
  let charged = 0;
  const { mine, deadTokens } = sortClaims(wanted, begun?.claims ?? [], known);
  // Looked up but not settled under this request's claims: it outlived its lease (ADR 055).
  let lost = 0;
  const settles: ContactUnlock[] = [];
  // The request's records as they stand after this request's writes (the finish's, below).
  const current = new Map(targets.map((t) => [t.record.id, t.record]));
  if (begun) {
    try {
      await lookUp(deps, ws, mine, prices, { token, at }, settles);
    } finally {
      // One write settles what was looked up, shows the hits on every record of the request whose
      // person they belong to, and captures them, releasing the rest (also when a lookup failed:
      // what was not looked up stays pending until taken over).
      const paid = new Map(
        settles.flatMap((u) => (u.state === "unlocked" && u.value !== null ? [[keyOf(u.entity_id, u.kind), u.value]] : [])),
      );
      const records = paidRecordWrites(c, targets, dto.kinds, paid, known, at);
      const done = await deps.stores.contactUnlocks.finishUnlocks(ws.id, token, settles, {
        id: uuidv7(),
        at: deps.clock.now().toISOString(),
        reason,
      }, records);
      unlockDone(ws.id, token);
      const written = new Set(done.written ?? []);
      for (const w of records) if (written.has(w.write.record.id)) current.set(w.write.record.id, w.write.record);
      const applied = new Set(done.settled);
      for (const u of settles) {
        const key = keyOf(u.entity_id, u.kind);
        // Not applied: the claim was taken over meanwhile (this request outlived its claims); its
        // new holder answers for it.
        if (!applied.has(key)) {
          lost++;
          continue;
        }
        charged += u.credits;
        outcome.set(key, { status: u.state === "unlocked" ? "unlocked" : "unavailable", credits: u.credits, value: u.value });
      }
      // The holds of requests that died holding keys this one took over: captured what they
      // settled, the rest released (a hold resolves once, so a repeat changes nothing).
      for (const dead of deadTokens) {
        await deps.stores.contactUnlocks.finishUnlocks(ws.id, dead, [], { id: uuidv7(), at: deps.clock.now().toISOString(), reason });
        unlockDone(ws.id, dead);
      }
    }
  }

  // Each key as this request leaves it: its own outcome, as it stood, or as the request that held
  // it settled it (waited for).
  const final = await finalStates(deps, ws, targets, dto.kinds, outcome, known);
  // Every record of the request shows what its person has unlocked (ADR 056), not only the first.
  await showValues(deps, c, targets, dto.kinds, final, current);
  // The sweep (or another unlock) resolved this request's hold meanwhile: what it looked up and
  // could not settle was not charged, and is not answered as if the directory had no value.
  if (lost > 0) throw unlockExpired(leaseMs, charged);

  // Every item: this request's outcome for the first of a key, already unlocked (or unavailable) otherwise.
  const items = answerItems(targets, dto.kinds, outcome, final);
  if (charged > 0 || outcome.size > 0) {
    await emit(deps, ws.id, "radar.contacts_unlocked", p, {
      collection_id: c.id,
      unlocked: [...outcome.values()].filter((o) => o.status === "unlocked").length,
      charged_credits: charged,
    });
  }
  return { items, charged_credits: charged };
}
