import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { WorkspaceEvent } from "../../core/events/event.ts";
import type { Stores } from "../../core/stores.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/**
 * Records as CSV and NDJSON over HTTP (issue #25, docs/decisions/063-records-csv-and-ndjson.md),
 * run on every backend by record-transfer.test.ts: export streams (filters, columns, CSV
 * injection), import all or nothing (row errors, the row limit, the plan's limit, dry run,
 * Idempotency-Key), and the round trip export → import into another collection.
 */
export function runRecordTransferSuite(
  name: string,
  open: () => Promise<Stores>,
  /** `rows`: the round trip's (more than a store page of 200); `maxRows`: IMPORT_MAX_ROWS. Smaller on FerretDB, which scans. */
  size: { rows: number; maxRows: number } = { rows: 450, maxRows: 600 },
) {
  describe(name, () => {
    let t: TestApp;
    let key: string;
    let wsId: string;
    const ws = "/workspaces/xfer";
    const events: WorkspaceEvent[] = [];
    beforeAll(async () => {
      // A small row limit, so that "over the limit" is a short file.
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), { config: { importMaxRows: size.maxRows } });
      const boot = await t.bootstrap("xfer");
      key = boot.key;
      wsId = boot.body.workspace.id;
      t.core.events!.subscribe(wsId, (e) => void events.push(e));
    });

    const schema = {
      fields: {
        company: { type: "string", required: true, max_length: 200 },
        amount: { type: "number", min: 0 },
        seats: { type: "integer" },
        won: { type: "boolean" },
        close_date: { type: "date" },
        tier: { type: "enum", values: ["smb", "mid", "ent"] },
        labels: { type: "list", items: { type: "string" }, max_items: 5 },
        status: { type: "string" },
      },
    };
    async function collection(body: Record<string, unknown> = {}) {
      const res = await t.call("POST", `${ws}/collections`, {
        key,
        body: { name: "Deals", archetype: "pipeline", record_schema: schema, ...body },
      });
      if (res.status !== 201) throw new Error(`collection: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    }
    const importFile = (cid: string, text: string, q = "", headers: Record<string, string> = {}) =>
      t.call("POST", `${ws}/collections/${cid}/records/import${q}`, {
        key,
        rawBody: text,
        headers: { "content-type": q.includes("ndjson") ? "application/x-ndjson" : "text/csv", ...headers },
      });
    const exportFile = async (cid: string, q = "") => {
      const res = await t.call("GET", `${ws}/collections/${cid}/records/export${q}`, { key });
      expect(res.status).toBe(200);
      return { text: typeof res.body === "string" ? res.body : JSON.stringify(res.body), headers: res.headers };
    };
    /** The collection's records, oldest first. */
    async function records(cid: string) {
      const out: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await t.call("GET", `${ws}/collections/${cid}/records?limit=200${cursor ? `&cursor=${cursor}` : ""}`, { key });
        out.push(...page.body.records);
        cursor = page.body.nextCursor;
      } while (cursor);
      // Oldest first: the order of the export, and of a file's rows.
      return out.reverse();
    }
    /** CSV text as rows of cells (RFC 4180: quotes, doubled quotes, CRLF). */
    function parseCsv(text: string): string[][] {
      const rows: string[][] = [];
      let row: string[] = [];
      let cell = "";
      let quoted = false;
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        if (quoted) {
          if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
          else if (ch === '"') quoted = false;
          else cell += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ",") row.push(cell), (cell = "");
        else if (ch === "\r" && text[i + 1] === "\n") row.push(cell), rows.push(row), (row = []), (cell = ""), i++;
        else cell += ch;
      }
      if (cell !== "" || row.length) row.push(cell), rows.push(row);
      return rows;
    }
    const deal = (i: number) => ({
      company: `Company ${i}, "Ltd"`,
      amount: i * 10.5,
      seats: i,
      won: i % 2 === 0,
      close_date: `2026-01-${String((i % 28) + 1).padStart(2, "0")}`,
      tier: ["smb", "mid", "ent"][i % 3],
      labels: [`l${i % 4}`, "x"],
      status: `s${i}`,
    });
    const ndjsonOf = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

    test("export CSV: a header of the record's columns then the fields in schema order; typed cells; RFC 4180 quoting; a field named like a column is fields.<name>", async () => {
      const cid = await collection();
      const imported = await importFile(
        cid,
        ndjsonOf([{ fields: deal(1), status: "qualified" }, { fields: { company: "Bare" } }]),
        "?format=ndjson",
      );
      expect(imported.status).toBe(201);
      const { text, headers } = await exportFile(cid);
      expect(headers.get("content-type")).toStartWith("text/csv");
      expect(headers.get("content-disposition")).toMatch(/^attachment; filename="Deals-\d{8}T\d{6}Z\.csv"$/);
      const rows = parseCsv(text);
      // Schema order: `record_schema.fields` as the collection holds them (PostgreSQL's jsonb keeps keys in its own order).
      const declared = Object.keys((await t.call("GET", `${ws}/collections/${cid}`, { key })).body.record_schema.fields);
      expect(declared.toSorted()).toEqual(Object.keys(schema.fields).toSorted());
      const header = ["id", "status", "entity_id", "updated_at", ...declared.map((f) => (f === "status" ? "fields.status" : f))];
      expect(rows[0]).toEqual(header);
      expect(text.endsWith("\r\n")).toBe(true);
      const all = await records(cid);
      const first = all.find((r) => r.fields.company === 'Company 1, "Ltd"');
      const cells: Record<string, string> = {
        company: 'Company 1, "Ltd"',
        amount: "10.5",
        seats: "1",
        won: "false",
        close_date: "2026-01-02",
        tier: "mid",
        labels: '["l1","x"]',
        status: "s1",
      };
      expect(rows[1]).toEqual([first.id, "qualified", "", first.updated_at, ...declared.map((f) => cells[f]!)]);
      expect(text).toContain('"Company 1, ""Ltd"""');
      expect(rows[2]!.slice(4)).toEqual(declared.map((f) => (f === "company" ? "Bare" : "")));
      // `fields` picks columns in its order; filters are the list's.
      const picked = parseCsv((await exportFile(cid, "?fields=tier,company&status=qualified")).text);
      expect(picked).toEqual([["id", "status", "entity_id", "updated_at", "tier", "company"], [
        first.id,
        "qualified",
        "",
        first.updated_at,
        "mid",
        'Company 1, "Ltd"',
      ]]);
      const bad = await t.call("GET", `${ws}/collections/${cid}/records/export?fields=company,nope`, { key });
      expect(bad.status).toBe(400);
      expect((await t.call("GET", `${ws}/collections/${cid}/records/export?format=xlsx`, { key })).status).toBe(400);
    });

    test("CSV injection: text cells starting with = + - @ tab or CR are prefixed with ', numbers are not, and the import reads them back as they were", async () => {
      const cid = await collection({ record_schema: { fields: { note: { type: "string" }, n: { type: "number" } } } });
      const notes = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR", "'=already quoted", "plain", "a=b", "'plain"];
      const lines = notes.map((note, i) => ({ fields: { note, n: -i - 0.5 } }));
      expect((await importFile(cid, ndjsonOf(lines), "?format=ndjson")).status).toBe(201);
      const { text } = await exportFile(cid, "?fields=note,n");
      const cells = parseCsv(text).slice(1).map((r) => [r[4], r[5]]);
      expect(cells).toEqual([
        ['\'=HYPERLINK("http://x")', "-0.5"],
        ["'+1+1", "-1.5"],
        ["'-2+3", "-2.5"],
        ["'@SUM(A1)", "-3.5"],
        ["'\tTab", "-4.5"],
        ["'\rCR", "-5.5"],
        ["''=already quoted", "-6.5"],
        ["plain", "-7.5"],
        ["a=b", "-8.5"],
        ["'plain", "-9.5"],
      ]);
      // Not one cell of the file starts with a formula character.
      for (const row of parseCsv(text).slice(1)) for (const cell of row) expect(/^[=+@\t\r]/.test(cell)).toBe(false);
      // Back in, into another collection: the same values.
      const copy = await collection({ record_schema: { fields: { note: { type: "string" }, n: { type: "number" } } } });
      const back = await importFile(copy, text.replace(/^id,status,entity_id,updated_at,/, "xid,xstatus,xentity,xupdated,"), "");
      expect(back.status).toBe(400); // unknown columns are refused, nothing written
      expect(back.body.error.row_errors.map((e: any) => e.column)).toEqual(["xid", "xstatus", "xentity", "xupdated"]);
      expect(await records(copy)).toEqual([]);
      expect((await importFile(copy, text)).body).toMatchObject({ created: notes.length });
      const got = (await records(copy)).map((r) => r.fields.note).sort();
      expect(got).toEqual([...notes].sort());
    });

    test("round trip: CSV and NDJSON exports of more than a page import into another collection as equal records, in the same order", async () => {
      const src = await collection();
      const n = size.rows;
      const rows = Array.from({ length: n }, (_, i) => ({ fields: deal(i), status: ["lead", "won"][i % 2] }));
      const made = await importFile(src, ndjsonOf(rows), "?format=ndjson");
      expect(made.body).toMatchObject({ rows: n, created: n, updated: 0, unchanged: 0, skipped: 0 });
      const strip = (rs: any[]) => rs.map((r) => ({ status: r.status, entity_id: r.entity_id, fields: r.fields }));
      const want = strip(await records(src));
      expect(want).toHaveLength(n);
      for (const format of ["csv", "ndjson"]) {
        const { text } = await exportFile(src, `?format=${format}`);
        expect(text.split(format === "csv" ? "\r\n" : "\n").filter(Boolean)).toHaveLength(format === "csv" ? n + 1 : n);
        const dst = await collection();
        const res = await importFile(dst, text, `?format=${format}`);
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ rows: n, created: n, updated: 0, unchanged: 0 });
        expect(strip(await records(dst))).toEqual(want);
        // And the copy exports as the original did, but for ids and times.
        const again = await exportFile(dst, `?format=${format}`);
        const body = (s: string) =>
          format === "csv"
            ? parseCsv(s).map((r) => [r[1], ...r.slice(4)])
            : s.split("\n").filter(Boolean).map((l) => ({ ...JSON.parse(l), id: 0, updated_at: 0 }));
        expect(body(again.text)).toEqual(body(text));
      }
    });

    test("re-importing an export into its own collection changes nothing; an edited cell updates that record; a stale updated_at is a VERSION_CONFLICT", async () => {
      const cid = await collection();
      await importFile(cid, ndjsonOf([1, 2, 3].map((i) => ({ fields: deal(i) }))), "?format=ndjson");
      const { text } = await exportFile(cid);
      expect((await importFile(cid, text)).body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
      const rows = parseCsv(text);
      const col = (name: string) => rows[0]!.indexOf(name);
      rows[2]![col("tier")] = "smb"; // of the second record (was ent)
      rows[3]![col("amount")] = ""; // of the third: removed
      const edited = rows.map((r) => r.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(",")).join("\r\n") +
        "\r\n";
      const before = events.length;
      const res = await importFile(cid, edited);
      expect(res.body).toMatchObject({ created: 0, updated: 2, unchanged: 1 });
      const now = await records(cid);
      expect(now.find((r) => r.id === rows[2]![0]).fields.tier).toBe("smb");
      expect(now.find((r) => r.id === rows[2]![0]).version).toBe(2);
      expect(now.find((r) => r.id === rows[3]![0]).fields.amount).toBeUndefined();
      expect(events.slice(before).filter((e) => e.type === "record.updated").map((e) => e.data.record_id).sort()).toEqual(
        [rows[2]![0], rows[3]![0]].sort(),
      );
      // The file still carries the old updated_at: stale now.
      const stale = await importFile(cid, edited);
      expect(stale.status).toBe(400);
      expect(stale.body.error.row_errors).toEqual([
        expect.objectContaining({ line: 3, column: "updated_at", code: "VERSION_CONFLICT" }),
        expect.objectContaining({ line: 4, column: "updated_at", code: "VERSION_CONFLICT" }),
      ]);
      const history = await t.call("GET", `${ws}/collections/${cid}/records/${rows[2]![0]}/history`, { key });
      expect(history.body.history.map((h: any) => h.type)).toEqual(["record.updated", "record.created"]);
    });

    test("a bad row anywhere is a 400 IMPORT_INVALID listing every problem (line, column, code, message), and nothing is written", async () => {
      const cid = await collection();
      await importFile(cid, ndjsonOf([{ fields: { company: "Kept" } }]), "?format=ndjson");
      const before = await records(cid);
      const eventsBefore = events.length;
      const csv = [
        "company,amount,seats,won,close_date,tier,labels",
        "Good,1,2,true,2026-02-03,smb,[]",
        ",x,1.5,yes,2026-02-30,huge,notjson",
        '"Also good",3,4,false,,,"[""a""]"',
        "Short,1",
      ].join("\r\n") + "\r\n";
      const res = await importFile(cid, csv);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("IMPORT_INVALID");
      expect(res.body.error.message).toContain("nothing was written");
      expect(res.body.error.row_errors).toEqual([
        { line: 3, column: "amount", code: "INVALID_VALUE", message: "must be a number" },
        { line: 3, column: "seats", code: "INVALID_VALUE", message: "must be an integer" },
        { line: 3, column: "won", code: "INVALID_VALUE", message: "must be true or false" },
        { line: 3, column: "labels", code: "INVALID_VALUE", message: 'must be a JSON list, e.g. ["a","b"]' },
        { line: 3, column: "close_date", code: "INVALID_VALUE", message: "must be a date (YYYY-MM-DD)" },
        { line: 3, column: "tier", code: "INVALID_VALUE", message: "must be one of smb, mid, ent" },
        { line: 3, column: "company", code: "REQUIRED", message: "is required" },
        { line: 5, column: null, code: "MALFORMED_ROW", message: "has 2 cells where the header has 7" },
      ]);
      expect(res.body.error.details[0]).toEqual({ path: "line 3, amount", message: "INVALID_VALUE: must be a number" });
      // NDJSON: unknown keys, a bad stage, an unknown entity, a line that is not JSON.
      const nd = await importFile(
        cid,
        [
          '{"fields":{"company":"A"},"colour":"red"}',
          '{"fields":{"company":"B"},"status":"nope"}',
          `{"fields":{"company":"C"},"entity_id":"${crypto.randomUUID()}"}`,
          "{not json",
        ].join("\n"),
        "?format=ndjson",
      );
      expect(nd.status).toBe(400);
      expect(nd.body.error.row_errors.map((e: any) => [e.line, e.column, e.code])).toEqual([
        [1, "colour", "UNKNOWN_COLUMN"],
        [2, "status", "INVALID_STATUS"],
        [3, "entity_id", "UNKNOWN_ENTITY"],
        [4, null, "MALFORMED_ROW"],
      ]);
      expect(await records(cid)).toEqual(before);
      expect(events.length).toBe(eventsBefore);
    });

    test("a bad row after more than a chunk of good ones (250) still leaves nothing written", async () => {
      const cid = await collection();
      const good = Array.from({ length: size.maxRows - 1 }, (_, i) => `C${i},${i}\r\n`).join("");
      const res = await importFile(cid, `company,seats\r\n${good}Bad,1.5\r\n`);
      expect(res.status).toBe(400);
      expect(res.body.error.row_errors).toEqual([{
        line: size.maxRows + 1,
        column: "seats",
        code: "INVALID_VALUE",
        message: "must be an integer",
      }]);
      expect(await records(cid)).toEqual([]);
    });

    test("over IMPORT_MAX_ROWS rows is a 413 pointing to NDJSON batches, and nothing is written; at the limit it imports", async () => {
      const cid = await collection();
      const header = "company\r\n";
      const over = await importFile(cid, header + Array.from({ length: size.maxRows + 1 }, (_, i) => `C${i}\r\n`).join(""));
      expect(over.status).toBe(413);
      expect(over.body.error.code).toBe("PAYLOAD_TOO_LARGE");
      expect(over.body.error.message).toContain("NDJSON");
      expect(await records(cid)).toEqual([]);
      const at = await importFile(cid, header + Array.from({ length: size.maxRows }, (_, i) => `C${i}\r\n`).join(""));
      expect(at.body).toMatchObject({ rows: size.maxRows, created: size.maxRows });
      // A body over IMPORT_LIMIT_BYTES (1 GiB here) is refused before it is read.
      const big = await t.call("POST", `${ws}/collections/${cid}/records/import`, {
        key,
        rawBody: "company\r\n",
        headers: { "content-type": "text/csv", "content-length": String(1024 ** 3 + 1) },
      });
      expect(big.status).toBe(413);
    });

    test("dry_run answers what the import would do and writes nothing", async () => {
      const cid = await collection();
      await importFile(cid, ndjsonOf([{ fields: { company: "A" } }, { fields: { company: "B" } }]), "?format=ndjson");
      const existing = await records(cid);
      const eventsBefore = events.length;
      const lines = [
        { id: existing[0].id, fields: { company: "A2" } },
        { id: existing[1].id, fields: { company: existing[1].fields.company } },
        { fields: { company: "C" } },
      ];
      const text = ndjsonOf(lines) + "\n\n";
      const dry = await importFile(cid, text, "?format=ndjson&dry_run=true");
      expect(dry.status).toBe(201);
      expect(dry.body).toEqual({
        dry_run: true,
        format: "ndjson",
        rows: 3,
        created: 1,
        updated: 1,
        unchanged: 1,
        skipped: 0,
        skipped_reasons: [],
      });
      expect(await records(cid)).toEqual(existing);
      expect(events.length).toBe(eventsBefore);
      const real = await importFile(cid, text, "?format=ndjson");
      expect({ ...real.body, dry_run: true }).toEqual(dry.body);
      expect((await records(cid)).length).toBe(3);
      // A CSV's blank rows are skipped and said so.
      const blank = await importFile(cid, "company,seats\r\nD,1\r\n,\r\n\r\nE,2\r\n", "?dry_run=true");
      expect(blank.body).toMatchObject({
        rows: 4,
        created: 2,
        skipped: 2,
        skipped_reasons: [{ reason: "empty row", count: 2, lines: [3, 4] }],
      });
    });

    test("Idempotency-Key: a retry is answered from the first import (Idempotent-Replayed) and writes nothing more; another file under the key is 409", async () => {
      const cid = await collection();
      const text = "company,seats\r\nA,1\r\nB,2\r\n";
      const headers = { "idempotency-key": "import-1" };
      const first = await importFile(cid, text, "", headers);
      expect(first.status).toBe(201);
      expect(first.body.created).toBe(2);
      const retry = await importFile(cid, text, "", headers);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body).toEqual(first.body);
      expect((await records(cid)).length).toBe(2);
      const other = await importFile(cid, "company\r\nC\r\n", "", headers);
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
      expect((await records(cid)).length).toBe(2);
    });

    test("each created record publishes record.created; the plan's limit applies to the whole import (402, nothing written)", async () => {
      const cid = await collection();
      const before = events.length;
      const res = await importFile(cid, "company\r\nA\r\nB\r\nC\r\n");
      expect(res.body.created).toBe(3);
      const created = events.slice(before).filter((e) => e.type === "record.created");
      expect(created.map((e) => e.data.record_id).sort()).toEqual((await records(cid)).map((r) => r.id).sort());
      // Under PLAN_LIMITS=enforce, an enterprise contract allowing 3 records: 4 do not fit, 3 do.
      const operator = "op-".padEnd(40, "x");
      const limited = await makeTestApp(t.core.stores, { planLimits: "enforce", platformAdminKey: operator });
      const boot = await limited.bootstrap("xfer-limited");
      const contract = await limited.call("POST", `/platform/billing/workspaces/${boot.body.workspace.id}/enterprise`, {
        key: operator,
        body: { limits: { records: 3 }, price: { amount: 1_000, currency: "eur", interval: "year" }, term_months: 12 },
      });
      expect(contract.status).toBe(201);
      const lc = await limited.call("POST", "/workspaces/xfer-limited/collections", {
        key: boot.key,
        body: { name: "L", archetype: "pipeline" },
      });
      const into = (text: string) =>
        limited.call("POST", `/workspaces/xfer-limited/collections/${lc.body.id}/records/import`, {
          key: boot.key,
          rawBody: text,
          headers: { "content-type": "text/csv" },
        });
      const count = async () =>
        (await limited.call("GET", `/workspaces/xfer-limited/collections/${lc.body.id}/records`, { key: boot.key })).body.records.length;
      const refused = await into("company\r\nW\r\nX\r\nY\r\nZ\r\n");
      expect(refused.status).toBe(402);
      expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", limit: "records", allowed: 3 });
      expect(await count()).toBe(0);
      expect((await into("company\r\nX\r\nY\r\nZ\r\n")).body.created).toBe(3);
      expect(await count()).toBe(3);
    });

    test("open collections: CSV columns in first-seen order; cells stay text unless infer=true", async () => {
      const cid = await collection({ record_schema: undefined });
      await importFile(
        cid,
        ndjsonOf([{ fields: { b: 1 } }, { fields: { a: "x", b: 2 } }, { fields: { c: { k: [1] }, a: "y" } }]),
        "?format=ndjson",
      );
      const { text } = await exportFile(cid);
      const rows = parseCsv(text);
      expect(rows.map((r) => r.slice(4))).toEqual([["b", "a", "c"], ["1", "", ""], ["2", "x", ""], ["", "y", '{"k":[1]}']]);
      const plain = await collection({ record_schema: undefined });
      await importFile(plain, text);
      expect((await records(plain)).map((r) => r.fields)).toEqual([{ b: "1" }, { b: "2", a: "x" }, { a: "y", c: '{"k":[1]}' }]);
      const inferred = await collection({ record_schema: undefined });
      await importFile(inferred, text, "?infer=true");
      expect((await records(inferred)).map((r) => r.fields)).toEqual([{ b: 1 }, { b: 2, a: "x" }, { a: "y", c: { k: [1] } }]);
    });
  });
}
