import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { TRANSFER_WRITE_BATCH } from "../../core/kernel/store-transfer.ts";
import { ARCHIVE_LINE_SCHEMAS, type ArchiveKind, archiveLineProblems } from "../../core/portability/mod.ts";
import type { ArchiveDoc, ArchiveKindIo } from "../../core/portability/kind-io.ts";
import type { ArchiveLine } from "../../core/portability/lines.ts";
import { IMPORTED_UNLOCK_TOKEN, radarKindIo, RUN_NOT_FINISHED_AT_EXPORT } from "../../core/portability/kinds/radar.ts";

import { CRITERION_TAG, criterionBody } from "../../core/radar/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { topicEvent } from "../../core/topics/topic-change.ts";
import { bootstrapped, topicFixture } from "../contract/fixtures.ts";
import { contactsSeeder } from "../contract/transfer-seeds/contacts.ts";
import { radarSeeder } from "../contract/transfer-seeds/radar.ts";

const KINDS = [
  "radar_criteria",
  "radar_searches",
  "radar_runs",
  "radar_run_trace",
  "radar_run_results",
  "radar_monitors",
  "contact_unlocks",
] as const satisfies readonly ArchiveKind[];

async function linesOf<K extends ArchiveKind>(kind: K, s: Stores, ws: string): Promise<ArchiveLine<K>[]> {
  const io = radarKindIo[kind] as ArchiveKindIo<K>;
  const out: ArchiveLine<K>[] = [];
  for await (const line of io.lines(s, ws)) out.push(line);
  return out;
}

/** Writes documents through the target's transfer kinds, in batches, as the import does. */
async function writeDocs(s: Stores, docs: ArchiveDoc[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < docs.length; i += TRANSFER_WRITE_BATCH) {
    for (const d of docs.slice(i, i + TRANSFER_WRITE_BATCH)) {
      added += await s.transfer.kinds.find((k) => k.name === d.kind)!.write([d.doc]);
    }
  }
  return added;
}

/** A source workspace seeded through the modules' own stores (the transfer contract's seeders) and a criterion topic. */
async function seededSource() {
  const s = createMemoryStores();
  const b = await bootstrapped(s);
  await radarSeeder.seed(s, b);
  await contactsSeeder.seed(s, b);
  const body = criterionBody({ kind: "company", filter: { industries: ["fintech"], countries: ["DE"] } }, "Fintechs in München");
  const criterion = topicFixture(b.workspace.id, { slug: "fintechs-muenchen", tags: [CRITERION_TAG], body });
  await s.topics.insert({ topic: criterion, event: topicEvent(null, criterion, "topic.created", new Date(criterion.updated_at)) });
  return { s, b, criterion };
}

describe("radar and contacts archive kinds (core/portability/kinds/radar.ts)", () => {
  test("lines → toDocs → write → lines is the identity for every kind, into another store's workspace", async () => {
    const { s, b, criterion } = await seededSource();
    const t = createMemoryStores();
    const target = await bootstrapped(t);
    // The topic travels with the topics kinds; criteria are read from it on either side.
    await t.topics.insert({
      topic: { ...criterion, workspace_id: target.workspace.id },
      event: topicEvent(null, criterion, "topic.created", new Date()),
    });
    const ctx = { workspaceId: target.workspace.id, now: new Date().toISOString() };
    for (const kind of KINDS) {
      const io = radarKindIo[kind] as ArchiveKindIo<typeof kind>;
      const lines = await linesOf(kind, s, b.workspace.id);
      expect({ kind, some: lines.length > 0 }).toEqual({ kind, some: true });
      // Every line fits its schema (the export's writer refuses one that does not).
      expect({ kind, problems: lines.flatMap((l) => archiveLineProblems(kind, l)) }).toEqual({ kind, problems: [] });
      const docs = lines.flatMap((l) => io.toDocs(l as never, ctx));
      if (kind === "radar_criteria") expect(docs).toEqual([]);
      await writeDocs(t, docs);
      expect({ kind, lines: await linesOf(kind, t, target.workspace.id) }).toEqual({ kind, lines });
      // Written again (an import run twice): nothing is added.
      expect(await writeDocs(t, docs)).toBe(0);
    }
  });

  test("a run under way at export is history: failed, nothing held, and no worker takes it over on the target", async () => {
    const { s, b } = await seededSource();
    const running = (await s.radarRuns.staleRuns("2030-01-01T00:00:00.000Z", 100)).find((r) => r.workspace_id === b.workspace.id)!;
    expect(running.state).toBe("running");
    const line = (await linesOf("radar_runs", s, b.workspace.id)).find((l) => l.id === running.id)!;
    expect(line).toMatchObject({
      state: "failed",
      error: RUN_NOT_FINISHED_AT_EXPORT,
      hold_credits: running.hold_credits,
      charged_credits: running.charged_credits,
      released_credits: running.hold_credits - running.charged_credits,
      finished_at: running.updated_at,
    });
    // Finished and untouched runs stay as they were.
    const others = (await linesOf("radar_runs", s, b.workspace.id)).filter((l) => l.id !== running.id);
    for (const o of others) expect(o.state).toBe((await s.radarRuns.getRun(b.workspace.id, o.id))!.state);

    const t = createMemoryStores();
    const target = await bootstrapped(t);
    const ctx = { workspaceId: target.workspace.id, now: new Date().toISOString() };
    // Even a line that says "running" (an archive made by hand) is written as history.
    const handMade = { ...line, state: "running" as const, error: null, finished_at: null, released_credits: 0 };
    await writeDocs(t, radarKindIo.radar_runs!.toDocs(handMade, ctx));
    const stored = (await t.radarRuns.getRun(target.workspace.id, running.id))!;
    expect(stored).toMatchObject({ state: "failed", error: RUN_NOT_FINISHED_AT_EXPORT, lease_until: null, cursor: null, attempt: 0 });
    expect(stored.released_credits).toBe(stored.hold_credits - stored.charged_credits);
    expect(await t.radarRuns.staleRuns("2030-01-01T00:00:00.000Z", 100)).toEqual([]);
  });

  test("contact unlocks: settled ones leave with their values and no token; imported ones are answered, never claimed again", async () => {
    const { s, b } = await seededSource();
    const lines = await linesOf("contact_unlocks", s, b.workspace.id);
    const stored = [];
    for await (const d of s.transfer.kinds.find((k) => k.name === "contacts.unlocks")!.read({ workspaceId: b.workspace.id })) {
      stored.push(d);
    }
    expect(stored.filter((u) => u.state === "pending").length).toBe(1);
    // The pending claim of the request in flight stays behind; no line carries a token.
    expect(lines.map((l) => l.state).sort()).toEqual(["unavailable", "unlocked", "unlocked"]);
    expect(lines.some((l) => "token" in l)).toBe(false);
    expect(lines.find((l) => l.kind === "email")!.value).toBe("zoë.müller+radar@example.com");

    const t = createMemoryStores();
    const target = await bootstrapped(t);
    const ctx = { workspaceId: target.workspace.id, now: new Date().toISOString() };
    await writeDocs(t, lines.flatMap((l) => radarKindIo.contact_unlocks!.toDocs(l, ctx)));
    const imported = await t.contactUnlocks.unlocksOf(target.workspace.id, [lines[0]!.entity_id]);
    expect(imported.map((u) => u.token)).toEqual(imported.map(() => IMPORTED_UNLOCK_TOKEN));
    const email = imported.find((u) => u.kind === "email")!;
    const again = await t.contactUnlocks.beginUnlocks(
      [{ ...email, state: "pending", value: null, credits: 0, token: crypto.randomUUID(), claimed_at: ctx.now, settled_at: null }],
      null,
      ctx.now,
    );
    expect(again).toEqual({ ok: true, hold: null, claims: [{ claimed: false, existing: email }] });
    // No lease came with them: the sweep has nothing to resolve.
    expect(await t.contactUnlocks.expiredUnlocks("2100-01-01T00:00:00.000Z", 100)).toEqual([]);
  });

  test("every kind of the group has its IO", () => {
    for (const kind of KINDS) {
      expect({ kind, io: radarKindIo[kind] !== undefined, schema: kind in ARCHIVE_LINE_SCHEMAS }).toEqual({ kind, io: true, schema: true });
    }
  });
});
