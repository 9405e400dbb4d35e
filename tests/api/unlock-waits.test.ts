import { describe, expect, test } from "bun:test";
import { openUnlockWaits } from "../../core/contacts/unlock-waits.ts";
import { UNLOCK_WAIT_MS } from "../../core/contacts/contact-paths.ts";
import type { ContactUnlock } from "../../core/contacts/model.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { ProspectDirectory } from "../../core/radar/ports.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { makeTestApp } from "../support/test-app.ts";

/**
 * An unlock of a key another request holds waits for that request (ADR 061): woken by the holder's
 * finish in this process, by a re-read when the holder is elsewhere, and given up when the wait
 * has passed on the clock port. The clock here never moves unless a test moves it: a wait that
 * read the wall clock, or polled to its deadline, would not end the way these tests expect.
 */
const OPERATOR = "op_" + "w".repeat(40);

/** A directory whose contact lookups wait until released. */
function slowContacts(inner: ProspectDirectory) {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let waiting = 0;
  const directory: ProspectDirectory = {
    name: inner.name,
    count: (q) => inner.count(q),
    search: (q, page) => inner.search(q, page),
    enrich: (kind, ids) => inner.enrich(kind, ids),
    async contacts(id) {
      waiting++;
      await gate;
      return inner.contacts(id);
    },
  };
  return { directory, waiting: () => waiting, release };
}

async function until<T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await Bun.sleep(10);
  }
}

/** An app on a clock that stands still, a workspace with credits and person records from a run. */
async function world(slug: string) {
  const slow = slowContacts(createSampleDirectory());
  const clock = fixedClock(new Date());
  const t = await makeTestApp(undefined, { platformAdminKey: OPERATOR, core: { prospects: slow.directory, clock } });
  const { key } = await t.bootstrap(slug);
  const ws = (path: string) => `/workspaces/${slug}/radar${path}`;
  expect((await t.call("POST", ws("/credits/grant"), { key: OPERATOR, body: { amount: 1_000 } })).status).toBe(201);
  const opened = await t.call("POST", ws("/searches"), {
    key,
    body: {
      criterion: { title: "Dutch directors", kind: "person", filter: { countries: ["NL"], seniorities: ["director"] } },
      max_results: 2,
    },
  });
  const { run, search } = opened.body;
  await t.call("POST", ws(`/runs/${run.id}/price`), { key, body: {} });
  expect((await t.call("POST", ws(`/runs/${run.id}/start`), { key })).status).toBe(201);
  const coll = search.collection_id;
  const records = (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records?limit=2`, { key })).body.records;
  const unlock = (recordId: string, kinds: string[]) =>
    t.call("POST", ws(`/collections/${coll}/contact-paths/unlock`), { key, body: { record_ids: [recordId], kinds } });
  const workspace = (await t.core.stores.workspaces.getBySlug(slug))!;
  return { t, slow, clock, records, unlock, workspace };
}

describe("an unlock waiting on a key another request holds", () => {
  test("wakes when the holder in this process finishes, and answers its value already_unlocked, free", async () => {
    const w = await world("unlock-wait-wakes");
    const [a] = w.records;
    const holding = w.unlock(a.id, ["email"]);
    await until("the holder's lookup", w.slow.waiting, (n) => n === 1);
    const waiting = w.unlock(a.id, ["email"]);
    await until("the waiter", openUnlockWaits, (n) => n === 1);
    w.slow.release();
    const [held, waited] = await Promise.all([holding, waiting]);
    expect(held.status).toBe(201);
    expect(waited.status).toBe(201);
    expect(held.body.items[0]).toMatchObject({ status: "unlocked" });
    expect(waited.body.items[0]).toEqual({
      record_id: a.id,
      kind: "email",
      status: "already_unlocked",
      credits: 0,
      value: held.body.items[0].value,
    });
    expect(waited.body.charged_credits).toBe(0);
    expect(openUnlockWaits()).toBe(0);
  });

  test("sees a holder elsewhere (no wake-up reaches it) settle by reading again", async () => {
    const w = await world("unlock-wait-elsewhere");
    const [a] = w.records;
    const entity = a.entity_id as string;
    const at = w.clock.now().toISOString();
    // Another instance's request holds the e-mail: its claim, written as that instance's store would.
    const token = uuidv7();
    const claim: ContactUnlock = {
      workspace_id: w.workspace.id,
      entity_id: entity,
      kind: "email",
      state: "pending",
      value: null,
      credits: 0,
      token,
      claimed_at: at,
      settled_at: null,
    };
    expect((await w.t.core.stores.contactUnlocks.beginUnlocks([claim], null, at)).ok).toBe(true);
    const waiting = w.unlock(a.id, ["email"]);
    await until("the waiter", openUnlockWaits, (n) => n === 1);
    // That instance finishes: nothing in this process is told.
    const settled = { ...claim, state: "unlocked" as const, value: "elsewhere@example.com", settled_at: at };
    expect(
      (await w.t.core.stores.contactUnlocks.finishUnlocks(w.workspace.id, token, [settled], { id: uuidv7(), at, reason: null })).settled,
    )
      .toEqual([`${entity}:email`]);
    const waited = await waiting;
    expect(waited.status).toBe(201);
    expect(waited.body.items[0]).toMatchObject({ status: "already_unlocked", credits: 0, value: "elsewhere@example.com" });
    expect(w.slow.waiting()).toBe(0);
  });

  test("gives up once the wait has passed on the clock: the key answers unavailable, nothing charged", async () => {
    const w = await world("unlock-wait-gives-up");
    const [a] = w.records;
    const holding = w.unlock(a.id, ["phone"]);
    await until("the holder's lookup", w.slow.waiting, (n) => n === 1);
    const waiting = w.unlock(a.id, ["phone"]);
    await until("the waiter", openUnlockWaits, (n) => n === 1);
    // The wall clock barely moves; the clock port passes the wait, and the waiter notices at its next read.
    const advanced = Date.now();
    w.clock.advance(UNLOCK_WAIT_MS + 1);
    const waited = await waiting;
    expect(Date.now() - advanced).toBeLessThan(UNLOCK_WAIT_MS / 2);
    expect(waited.status).toBe(201);
    expect(waited.body).toEqual({
      items: [{ record_id: a.id, kind: "phone", status: "unavailable", credits: 0, value: null }],
      charged_credits: 0,
    });
    expect(openUnlockWaits()).toBe(0);
    w.slow.release();
    expect((await holding).body.items[0]).toMatchObject({ kind: "phone", credits: expect.any(Number) });
  });
});
