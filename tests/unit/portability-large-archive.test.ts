import { expect, test } from "bun:test";
import {
  type ArchiveContents,
  type ArchiveLine,
  readWorkspaceArchive,
  verifyWorkspaceArchive,
  writeWorkspaceArchive,
} from "../../core/portability/mod.ts";
import { archiveWorkspace } from "./fixtures/archive-workspace.ts";

// 200,000 records of ~500 bytes (100 MB of NDJSON) written, verified and read back as streams
// that meet only in the test: nothing holds the archive. The live heap (after a full collection)
// is sampled as the lines pass; it must stay far below the data's size.
const LINES = 200_000;
const HEAP_BOUND = 64 * 1024 * 1024;

function contents(made: { lines: number }): ArchiveContents {
  const fixture = archiveWorkspace();
  const collection = fixture.all.collections[0]!;
  const entity = fixture.all.entities[0]!;
  const base = fixture.all.records[0]!;
  let seed = 0x9e3779b9;
  // Pseudo-random hex, the same on every run: the archive does not compress to nothing.
  const noise = () => {
    let s = "";
    for (let i = 0; i < 20; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      s += (seed >>> 0).toString(16).padStart(8, "0");
    }
    return s;
  };
  function* records(): Generator<ArchiveLine<"records">> {
    for (let i = 0; i < LINES; i++) {
      made.lines++;
      yield {
        ...base,
        id: `0197${(i >>> 16).toString(16).padStart(4, "0")}-${(i & 0xffff).toString(16).padStart(4, "0")}-7000-8000-000000000000`,
        collection_id: collection.id,
        entity_id: entity.id,
        fields: { company: entity.id, amount: i, contacts: [], note: noise() },
      };
    }
  }
  return {
    ...fixture,
    lines: {
      ...fixture.lines,
      records: records(),
      record_history: [],
      radar_run_results: [],
      credit_ledger: [],
      radar_runs: [],
      radar_run_trace: [],
      radar_monitors: [],
    },
  };
}

const mib = (n: number) => (n / 2 ** 20).toFixed(1);

/** Samples the live heap (after a full collection) every 250 ms until stopped: its peak growth. */
function heapMeter() {
  Bun.gc(true);
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let samples = 0;
  const sample = () => {
    Bun.gc(true);
    samples++;
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  };
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peak, samples };
    },
  };
}

test(
  "a 200,000-line archive is written, verified and read back with the heap far below its size; a reader that stops stops the writer",
  async () => {
    const made = { lines: 0 };
    const open = () => writeWorkspaceArchive(contents(made));

    let meter = heapMeter();
    const v = await verifyWorkspaceArchive(open());
    const verified = meter.stop();
    if (!v.ok) throw new Error(JSON.stringify(v.problems.slice(0, 3)));
    const dataBytes = v.manifest.files.filter((f) => f.path.startsWith("data/records.")).reduce((n, f) => n + f.bytes, 0);
    expect(v.manifest.kinds.records.count).toBe(LINES);
    expect(v.manifest.kinds.records.files.length).toBeGreaterThan(10);
    expect(dataBytes).toBeGreaterThan(90 * 1024 * 1024);
    expect(verified.samples).toBeGreaterThan(10);
    expect(verified.peak).toBeLessThan(HEAP_BOUND);

    meter = heapMeter();
    let records = 0;
    let amounts = 0;
    for await (const r of readWorkspaceArchive(open(), v.manifest)) {
      if (r.kind !== "records") continue;
      amounts += (r.value.fields as { amount: number }).amount;
      records++;
    }
    const read = meter.stop();
    expect(records).toBe(LINES);
    expect(amounts).toBe((LINES * (LINES - 1)) / 2);
    expect(read.peak).toBeLessThan(HEAP_BOUND);

    made.lines = 0;
    for await (const r of readWorkspaceArchive(open(), v.manifest)) if (r.kind === "records") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(made.lines).toBeLessThan(LINES / 2);
    console.log(
      `large archive: ${(dataBytes / 2 ** 20).toFixed(0)} MiB of records; peak live heap growth verifying ${mib(verified.peak)} MiB ` +
        `(${verified.samples} samples), reading ${
          mib(read.peak)
        } MiB (${read.samples} samples); lines made before a reader stopping at the first record: ${made.lines}`,
    );
  },
  240_000,
);
