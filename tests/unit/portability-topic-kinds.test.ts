import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { lineProblems } from "../../core/portability/line-check.ts";
import type { ArchiveLine } from "../../core/portability/lines.ts";
import type { ArchiveKind } from "../../core/portability/model.ts";
import { topicsKindIo } from "../../core/portability/kinds/topics.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped } from "../contract/fixtures.ts";
import { sharingSeeder } from "../contract/transfer-seeds/sharing.ts";
import { topicsSeeder } from "../contract/transfer-seeds/topics.ts";

/** The archive kinds of topics.ts, in replay order (a kind's documents name those before it). */
const KINDS = ["tags", "topics", "topic_redirects", "topic_history", "proposals", "relations", "share_links"] as const;

async function linesOf(stores: Stores, kind: ArchiveKind, workspaceId: string): Promise<ArchiveLine<ArchiveKind>[]> {
  const io = topicsKindIo[kind]!;
  const out: ArchiveLine<ArchiveKind>[] = [];
  for await (const l of (io as { lines(s: Stores, ws: string): AsyncIterable<ArchiveLine<ArchiveKind>> }).lines(stores, workspaceId)) {
    out.push(l);
  }
  return out;
}

describe("archive IO of topics and sharing (ADR 065, ADR 071)", () => {
  test("lines → toDocs → write → lines gives the same lines, kind by kind, in another store and workspace", async () => {
    const source = createMemoryStores();
    const target = createMemoryStores();
    const ws = await bootstrapped(source);
    await topicsSeeder.seed(source, ws);
    await sharingSeeder.seed(source, ws);
    const into = await bootstrapped(target);
    const ctx = { workspaceId: into.workspace.id, now: "2026-11-29T05:00:00.000Z" };
    for (const kind of KINDS) {
      const io = topicsKindIo[kind]!;
      const lines = await linesOf(source, kind, ws.workspace.id);
      expect({ kind, some: lines.length > 0 }).toEqual({ kind, some: true });
      expect({ kind, problems: lines.flatMap((l) => lineProblems(kind, l)) }).toEqual({ kind, problems: [] });
      const docs = lines.flatMap((l) => (io.toDocs as (l: unknown, c: typeof ctx) => ReturnType<typeof io.toDocs>)(l, ctx));
      expect(docs.every((d) => d.doc.workspace_id === into.workspace.id)).toBe(true);
      for (const name of new Set(docs.map((d) => d.kind))) {
        const k = target.transfer.kinds.find((x) => x.name === name)!;
        expect(await k.write(docs.filter((d) => d.kind === name).map((d) => d.doc))).toBe(docs.filter((d) => d.kind === name).length);
      }
      expect({ kind, lines: await linesOf(target, kind, into.workspace.id) }).toEqual({ kind, lines });
    }
    // The copy answers like the source: old slugs redirect, tags count their topics, search finds the same topics.
    for (const r of (await linesOf(source, "topic_redirects", ws.workspace.id)) as ArchiveLine<"topic_redirects">[]) {
      const resolved = await target.topics.resolve(into.workspace.id, r.slug);
      expect({ id: resolved?.topic.id, from: resolved?.redirectedFrom }).toEqual({ id: r.topic_id, from: r.slug });
    }
    const tags = async (s: Stores, id: string) => (await s.tags.list(id, { offset: 0, limit: 50 })).items;
    expect(await tags(target, into.workspace.id)).toEqual(await tags(source, ws.workspace.id));
    const search = (s: Stores, id: string) =>
      s.topics.search(id, { terms: ["zebra"], statuses: ["draft", "proposed", "reviewed"], limit: 10 });
    expect((await search(target, into.workspace.id)).items.map((t) => t.id)).toEqual(
      (await search(source, ws.workspace.id)).items.map((t) => t.id),
    );
  });

  test("a revoked share link becomes no document; an active one keeps its token's hash", () => {
    const io = topicsKindIo.share_links!;
    const ctx = { workspaceId: "01a2258b-a563-7003-a75e-8b048e856345", now: "2026-11-29T05:00:00.000Z" };
    const line: ArchiveLine<"share_links"> = {
      id: "01a2258b-a56c-7003-9e4d-33fc83fdb2b2",
      topic_id: "01a2258b-a56c-7000-85c0-94658d351a18",
      token_hash: "a".repeat(64),
      created_by: null,
      created_at: "2026-01-01T00:00:34.000Z",
      revoked_at: null,
    };
    expect(io.toDocs(line, ctx)).toEqual([{
      kind: "sharing.share_links",
      doc: {
        id: line.id,
        workspace_id: ctx.workspaceId,
        topic_id: line.topic_id,
        token_hash: line.token_hash,
        created_by: null,
        created_at: line.created_at,
      },
    }]);
    expect(io.toDocs({ ...line, token_hash: null, revoked_at: "2026-02-01T00:00:00.000Z" }, ctx)).toEqual([]);
  });
});
