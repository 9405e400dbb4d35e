import type { JournalEntry } from "../../../core/jobs/ports.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const seeded = new Map<string, string[]>();

/** Jobs' kinds (core/jobs/transfer.ts): journal entries (awkward payloads); on the copy they are still pending, as they were. */
export const jobSeeder: TransferSeeder = {
  module: "jobs",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const entries: JournalEntry[] = [
      {
        id: uuidv7(),
        run_at: stamp(),
        job: {
          kind: "mail.send",
          workspace_id: wsId,
          payload: { to: "pât@example.com", subject: "Grüße ✓ 🎉", lines: [], n: 9007199254740991, ratio: 0.25, none: null },
          key: `mail.send:${wsId}:k1`,
        },
      },
      { id: uuidv7(), run_at: stamp(), job: { kind: "repo.index", workspace_id: wsId, payload: {}, key: `repo.index:${wsId}:r` } },
    ];
    for (const e of entries) await s.jobJournal.keep(e);
    seeded.set(wsId, entries.map((e) => e.id));
  },
  async verify(source, target, ws, expect) {
    const ids = seeded.get(ws.workspace.id)!;
    const mine = async (s: typeof source) => (await s.jobJournal.pending(10_000)).filter((e) => ids.includes(e.id));
    const copied = await mine(target);
    expect(copied).toEqual(await mine(source));
    expect(copied.map((e) => e.id)).toEqual(ids);
  },
};
