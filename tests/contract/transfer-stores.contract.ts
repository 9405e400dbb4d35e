import type { Stores } from "../../core/stores.ts";
import {
  canonicalTransferJson,
  TRANSFER_WRITE_BATCH,
  type TransferDoc,
  type TransferKind,
  transferKindDigest,
  type TransferValue,
} from "../../core/kernel/store-transfer.ts";
import type { BootstrapBundle } from "../../core/workspaces/mod.ts";
import type { TestApi } from "./kit/test-api.ts";
import { bootstrapped } from "./fixtures.ts";
import { transferSeeders } from "./transfer-seeds/mod.ts";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LOOKS_LIKE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Where a document holds something that is not plain JSON, or a timestamp not in the one form. */
function notJson(value: unknown, path: string): string | null {
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "string") return LOOKS_LIKE_TIME.test(value) && !ISO_MS.test(value) ? `${path}: timestamp ${value}` : null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `${path}: ${value}`;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const bad = notJson(v, `${path}/${i}`);
      if (bad) return bad;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value as object)) {
      if (v === undefined) return `${path}/${k}: undefined`;
      const bad = notJson(v, `${path}/${k}`);
      if (bad) return bad;
    }
    return null;
  }
  return `${path}: ${Object.prototype.toString.call(value)}`;
}

/** A document's key, comparable in code-unit order (numbers as numbers). */
function keyOf(kind: TransferKind, doc: TransferDoc): TransferValue[] {
  return kind.key.map((k) => doc[k] ?? null);
}

function compareKeys(a: TransferValue[], b: TransferValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    const sx = canonicalTransferJson(x), sy = canonicalTransferJson(y);
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  }
  return 0;
}

async function readAll(kind: TransferKind, workspaceId?: string): Promise<TransferDoc[]> {
  const docs: TransferDoc[] = [];
  for await (const d of kind.read(workspaceId === undefined ? undefined : { workspaceId })) docs.push(d);
  return docs;
}

/** Copies every kind of `from` into `to`, in write order and batches; returns how many each write added. */
async function copyAll(from: Stores, to: Stores): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  for (const kind of from.transfer.kinds) {
    const target = to.transfer.kinds.find((k) => k.name === kind.name)!;
    let batch: TransferDoc[] = [];
    let n = 0;
    for await (const doc of kind.read()) {
      batch.push(doc);
      if (batch.length === TRANSFER_WRITE_BATCH) {
        n += await target.write(batch);
        batch = [];
      }
    }
    if (batch.length > 0) n += await target.write(batch);
    added.set(kind.name, n);
  }
  return added;
}

/**
 * The contract every store bundle's transfer kinds keep (core/kernel/store-transfer.ts, ADR 067):
 * plain JSON documents, read in key order and by workspace, written back as they are into a
 * fresh store of the same adapter, a second write adding nothing, and the copy serving the same
 * answers through the modules' own store methods. `open` is called twice: the source and the
 * target. Copies between adapters are tested by `npm run store:copy`'s round trip
 * (tests/e2e/store-copy.test.ts).
 */
export function runTransferStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: transfer kinds`, () => {
    let source: Stores;
    let target: Stores;
    let ws: BootstrapBundle;
    let other: BootstrapBundle;
    let firstCopy: Map<string, number>;

    beforeAll(async () => {
      source = await open();
      target = await open();
      ws = await bootstrapped(source);
      other = await bootstrapped(source);
      for (const seeder of transferSeeders) {
        await seeder.seed(source, ws);
        await seeder.seed(source, other);
      }
      firstCopy = await copyAll(source, target);
    });
    afterAll(async () => {
      await source?.close();
      await target?.close();
    });

    test("every kind has a unique `<module>.<kind>` name and a key", () => {
      const names = source.transfer.kinds.map((k) => k.name);
      expect(new Set(names).size).toBe(names.length);
      for (const k of source.transfer.kinds) {
        expect(k.name).toMatch(/^[a-z-]+\.[a-z_]+$/);
        expect(k.key.length).toBeGreaterThan(0);
      }
    });

    test("every module with kinds has a seeder, and the seeders leave no kind empty", async () => {
      const modules = new Set(source.transfer.kinds.map((k) => k.name.split(".")[0]));
      expect([...modules].filter((m) => !transferSeeders.some((s) => s.module === m))).toEqual([]);
      const empty: string[] = [];
      for (const k of source.transfer.kinds) if ((await k.count()) === 0) empty.push(k.name);
      expect(empty).toEqual([]);
    });

    test("documents are plain JSON, timestamps ISO 8601 UTC with milliseconds, read in key order", async () => {
      for (const k of source.transfer.kinds) {
        const docs = await readAll(k);
        expect({ kind: k.name, problems: docs.map((d) => notJson(d, "")).filter(Boolean) }).toEqual({ kind: k.name, problems: [] });
        for (let i = 1; i < docs.length; i++) {
          const order = compareKeys(keyOf(k, docs[i - 1]!), keyOf(k, docs[i]!));
          if (k.tenant) {
            // Keys are unique per workspace: order holds within one workspace's read.
            continue;
          }
          expect({ kind: k.name, at: i, ascending: order < 0 }).toEqual({ kind: k.name, at: i, ascending: true });
        }
        if (k.tenant) {
          const mine = await readAll(k, ws.workspace.id);
          for (let i = 1; i < mine.length; i++) {
            const order = compareKeys(keyOf(k, mine[i - 1]!), keyOf(k, mine[i]!));
            expect({ kind: k.name, at: i, ascending: order < 0 }).toEqual({ kind: k.name, at: i, ascending: true });
          }
        }
      }
    });

    test("a workspace's read holds its objects only, and count() agrees with read()", async () => {
      for (const k of source.transfer.kinds) {
        const mine = await readAll(k, ws.workspace.id);
        expect({ kind: k.name, count: await k.count({ workspaceId: ws.workspace.id }) }).toEqual({ kind: k.name, count: mine.length });
        if (!k.tenant) {
          expect({ kind: k.name, scoped: mine.length }).toEqual({ kind: k.name, scoped: 0 });
          continue;
        }
        expect({ kind: k.name, foreign: mine.filter((d) => d.workspace_id !== ws.workspace.id).length })
          .toEqual({ kind: k.name, foreign: 0 });
        expect({ kind: k.name, seeded: mine.length > 0 }).toEqual({ kind: k.name, seeded: true });
        const all = await readAll(k);
        expect({ kind: k.name, count: await k.count() }).toEqual({ kind: k.name, count: all.length });
      }
    });

    test("a copy into a fresh store holds the same documents, kind by kind", async () => {
      for (const k of source.transfer.kinds) {
        const t = target.transfer.kinds.find((x) => x.name === k.name)!;
        const [a, b] = await Promise.all([transferKindDigest(k), transferKindDigest(t)]);
        expect({ kind: k.name, ...b }).toEqual({ kind: k.name, ...a });
      }
    });

    test("writing the same documents again adds nothing and changes nothing", async () => {
      const before = await Promise.all(target.transfer.kinds.map((k) => transferKindDigest(k)));
      const again = await copyAll(source, target);
      expect([...again.values()].reduce((a, b) => a + b, 0)).toBe(0);
      const after = await Promise.all(target.transfer.kinds.map((k) => transferKindDigest(k)));
      expect(after).toEqual(before);
      // The first copy added what the target did not hold (a fresh store's own rows, if any, stay).
      for (const k of source.transfer.kinds) expect(firstCopy.get(k.name)).toBeGreaterThan(0);
    });

    test("the copy serves the seeded objects through each module's own store methods", async () => {
      for (const seeder of transferSeeders) await seeder.verify(source, target, ws, expect);
    });
  });
}
