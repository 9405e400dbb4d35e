import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Stores } from "../../core/stores.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const OPERATOR = "op_" + "c".repeat(40);
const EMAIL = 4;

/**
 * Contact paths over HTTP (ADR 056): whoever pays for a person's path sees it on every record of
 * that person in the request, and a record asked for later gets the value free. The people are
 * entities keyed `sample:<id>` of the bundled sample directory (every one has an e-mail); the
 * collection declares `email` only, so a LinkedIn URL stays on the entity.
 */
export function radarContactsSuite(name: string, open: () => Promise<Stores>) {
  describe(`contact values on every record (${name})`, () => {
    let t: TestApp;
    let p: Personas;
    let stores: Stores;
    let coll: string;
    const slug = "radar-contacts";
    let people = 0;

    beforeAll(async () => {
      stores = await open();
      t = await makeTestApp(stores, { platformAdminKey: OPERATOR, core: { prospects: createSampleDirectory() } });
      p = await personas(t, slug);
      const granted = await t.call("POST", `/workspaces/${slug}/radar/credits/grant`, { key: OPERATOR, body: { amount: 10_000 } });
      expect(granted.status).toBe(201);
      const c = await t.call("POST", `/workspaces/${slug}/collections`, {
        key: p.member,
        body: {
          name: "Leads",
          archetype: "pipeline",
          record_schema: { fields: { name: { type: "string" }, email: { type: "string" } } },
        },
      });
      expect(c.status).toBe(201);
      coll = c.body.id;
    });
    afterAll(async () => {
      await stores?.close();
    });

    const credits = async () => (await t.call("GET", `/workspaces/${slug}/radar/credits`, { key: p.member })).body;
    /** A new person of the sample directory, as an entity. */
    const person = async (): Promise<string> => {
      const id = `pe_${String(++people).padStart(5, "0")}`;
      const e = await t.call("POST", `/workspaces/${slug}/entities`, {
        key: p.member,
        body: { kind: "person", name: `Person ${id}`, dedup_key: `sample:${id}` },
      });
      expect(e.status).toBe(201);
      return e.body.entity.id;
    };
    const record = async (entityId: string, name = "Lead"): Promise<string> => {
      const r = await t.call("POST", `/workspaces/${slug}/collections/${coll}/records`, {
        key: p.member,
        body: { fields: { name }, entity_id: entityId },
      });
      expect(r.status).toBe(201);
      return r.body.id;
    };
    const unlock = (recordIds: string[], kinds: string[] = ["email"]) =>
      t.call("POST", `/workspaces/${slug}/radar/collections/${coll}/contact-paths/unlock`, {
        key: p.member,
        body: { record_ids: recordIds, kinds },
      });
    const read = async (id: string) =>
      (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records/${id}`, { key: p.member })).body;
    const history = async (id: string) =>
      (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records/${id}/history`, { key: p.member })).body.history;

    test("two records of one person unlocked together: charged once, both records show the value, each write in the record's history", async () => {
      const entity = await person();
      const [a, b] = [await record(entity, "Ada"), await record(entity, "Ada (import)")];
      const before = await credits();
      const res = await unlock([a, b], ["email", "linkedin"]);
      expect(res.status).toBe(201);
      expect(res.headers.get("x-credits-charged")).toBe(String(EMAIL + 1));
      const email = res.body.items[0].value;
      const linkedin = res.body.items[1].value;
      expect(email).toMatch(/@.+\.example$/);
      expect(res.body).toEqual({
        items: [
          { record_id: a, kind: "email", status: "unlocked", credits: EMAIL, value: email },
          { record_id: a, kind: "linkedin", status: "unlocked", credits: 1, value: linkedin },
          { record_id: b, kind: "email", status: "already_unlocked", credits: 0, value: email },
          { record_id: b, kind: "linkedin", status: "already_unlocked", credits: 0, value: linkedin },
        ],
        charged_credits: EMAIL + 1,
      });
      expect(await credits()).toMatchObject({ balance: before.balance - EMAIL - 1, held: 0 });
      for (const [id, name] of [[a, "Ada"], [b, "Ada (import)"]] as const) {
        const r = await read(id);
        // The schema declares `email`, not `linkedin_url`: that one stays on the entity.
        expect(r.fields).toEqual({ name, email });
        expect(r.version).toBe(2);
        const [last, first] = await history(id);
        expect(first).toMatchObject({ version: 1, type: "record.created" });
        expect(last).toMatchObject({
          version: 2,
          type: "record.updated",
          actor_kind: "agent",
          diff: [{ path: "fields.email", before: null, after: email }],
        });
      }
      const ent = await t.call("GET", `/workspaces/${slug}/entities/${entity}`, { key: p.member });
      expect(ent.body.attributes).toMatchObject({ email, linkedin_url: linkedin });
      // Again: free, and nothing is written twice.
      const again = await unlock([b, a]);
      expect(again.body.charged_credits).toBe(0);
      expect(again.body.items.map((i: { status: string }) => i.status)).toEqual(["already_unlocked", "already_unlocked"]);
      expect((await read(a)).version).toBe(2);
      expect((await read(b)).version).toBe(2);
    });

    test("a record of a person unlocked before: already_unlocked, 0 credits, and the value written to that record", async () => {
      const entity = await person();
      const first = await record(entity);
      const paid = await unlock([first]);
      expect(paid.body.items[0]).toMatchObject({ status: "unlocked", credits: EMAIL });
      const email = paid.body.items[0].value;
      const later = await record(entity, "Later");
      expect((await read(later)).fields).toEqual({ name: "Later" });
      const before = await credits();
      const res = await unlock([later]);
      expect(res.status).toBe(201);
      expect(res.headers.get("x-credits-charged")).toBe("0");
      expect(res.body).toEqual({
        items: [{ record_id: later, kind: "email", status: "already_unlocked", credits: 0, value: email }],
        charged_credits: 0,
      });
      expect(await credits()).toMatchObject({ balance: before.balance, held: 0 });
      const r = await read(later);
      expect(r).toMatchObject({ version: 2, fields: { name: "Later", email } });
      expect((await history(later))[0]).toMatchObject({
        version: 2,
        actor_kind: "agent",
        diff: [{ path: "fields.email", before: null, after: email }],
      });
      // A repeat: free, and the same value is not written again.
      expect((await unlock([later])).body.charged_credits).toBe(0);
      expect((await read(later)).version).toBe(2);
    });

    test("one person's e-mail unlocked through two records by two concurrent requests, 30 times: charged once, both records show it", async () => {
      for (let round = 0; round < 30; round++) {
        const entity = await person();
        const [a, b] = [await record(entity), await record(entity)];
        const before = await credits();
        // Most rounds ask for one record each; every third, both in opposite orders (the same records written by both).
        const both = round % 3 === 2;
        const [x, y] = await Promise.all([unlock(both ? [a, b] : [a]), unlock(both ? [b, a] : [b])]);
        expect([x.status, y.status]).toEqual([201, 201]);
        const items = [...x.body.items, ...y.body.items];
        expect(items.filter((i) => i.status === "unlocked")).toHaveLength(1);
        expect(items.filter((i) => i.status === "already_unlocked")).toHaveLength(items.length - 1);
        expect(new Set(items.map((i) => i.value)).size).toBe(1);
        expect(x.body.charged_credits + y.body.charged_credits).toBe(EMAIL);
        expect(await credits()).toMatchObject({ balance: before.balance - EMAIL, held: 0 });
        const email = items[0].value;
        for (const id of [a, b]) {
          const r = await read(id);
          expect(r.fields.email).toBe(email);
          // Written once, whichever request wrote it.
          expect(r.version).toBe(2);
        }
      }
    });
  });
}
