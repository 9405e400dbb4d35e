/**
 * Topics' transfer kinds past one read page (adapters/postgres/topics/transfer-kind.ts reads 500
 * rows per statement after the last key read): 1,200 tags and 1,200 topics of one workspace, a
 * few of another, written in batches through the kinds and read back on memory and PGlite. Every
 * object comes once, in key order, and the topics' derived tag counts and tag pages are the
 * store's own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { TRANSFER_WRITE_BATCH, type TransferDoc } from "../../core/kernel/store-transfer.ts";
import type { Stores } from "../../core/stores.ts";
import type { Tag } from "../../core/topics/model.ts";
import { bootstrapped, topicFixture } from "./fixtures.ts";

const N = 1_200;

async function writeAll(s: Stores, kind: string, docs: TransferDoc[]): Promise<number> {
  const k = s.transfer.kinds.find((x) => x.name === kind)!;
  let n = 0;
  for (let i = 0; i < docs.length; i += TRANSFER_WRITE_BATCH) n += await k.write(docs.slice(i, i + TRANSFER_WRITE_BATCH));
  return n;
}

async function readAll(s: Stores, kind: string, workspaceId?: string): Promise<TransferDoc[]> {
  const out: TransferDoc[] = [];
  for await (const d of s.transfer.kinds.find((x) => x.name === kind)!.read(workspaceId ? { workspaceId } : undefined)) out.push(d);
  return out;
}

const opened: Stores[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

for (const [name, open] of [["memory", async () => createMemoryStores()], ["pglite", () => openPgliteStores()]] as const) {
  describe(`${name}: topics' transfer kinds past one read page`, () => {
    test("every tag and topic is read once, in key order, with derived counts and tag pages", async () => {
      const s = await open();
      opened.push(s);
      const ws = (await bootstrapped(s)).workspace.id;
      const other = (await bootstrapped(s)).workspace.id;
      const at = "2026-01-01T00:00:00.000Z";
      // Names that sort differently by code unit than by a locale: upper case, digits, a hyphen.
      const tag = (i: number) => `t-${String(i).padStart(4, "0")}${i % 2 ? "B" : "a"}`;
      const tags = Array.from(
        { length: N },
        (_, i): Tag => ({ workspace_id: ws, name: tag(i), description: null, created_at: at, updated_at: at }),
      );
      expect(await writeAll(s, "topics.tags", tags as unknown as TransferDoc[])).toBe(N);
      const topics = Array.from(
        { length: N },
        (_, i) => topicFixture(ws, { tags: [tag(i % 7)], status: i % 5 === 0 ? "archived" : "draft" }),
      );
      topics.push(topicFixture(other, { tags: ["x"] }));
      expect(await writeAll(s, "topics.topics", topics as unknown as TransferDoc[])).toBe(N + 1);
      expect(await writeAll(s, "topics.topics", topics as unknown as TransferDoc[])).toBe(0);

      const readTags = (await readAll(s, "topics.tags", ws)).map((d) => d.name as string);
      expect(readTags).toEqual(tags.map((t) => t.name).sort());
      const readTopics = (await readAll(s, "topics.topics", ws)).map((d) => d.id as string);
      expect(readTopics).toEqual(topics.filter((t) => t.workspace_id === ws).map((t) => t.id).sort());
      const whole = await readAll(s, "topics.topics");
      expect(whole.length).toBe(N + 1);
      expect(new Set(whole.map((d) => d.id)).size).toBe(N + 1);

      const carrying = topics.filter((t) => t.workspace_id === ws && t.tags[0] === tag(3));
      expect((await s.tags.get(ws, tag(3)))?.topic_count).toBe(carrying.length);
      const live = carrying.filter((t) => t.status !== "archived");
      expect((await s.topics.list(ws, { tags: [tag(3)] }, { offset: 0, limit: 500 })).total).toBe(live.length);
      expect((await s.tags.get(other, "x"))?.topic_count).toBe(1);
    }, 120_000);
  });
}
