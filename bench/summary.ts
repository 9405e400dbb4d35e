/**
 * What targets measure outside wrk's load and the runner prints after the table: how long seeding
 * records through HTTP took (the collections benchmark's "create 100,000 records").
 */

export interface Seeding {
  /** e.g. "ours (postgres)", "PocketBase". */
  label: string;
  records: number;
  seconds: number;
  concurrency: number;
}

const seedings: Seeding[] = [];

export function recordSeeding(seeding: Seeding): void {
  seedings.push(seeding);
}

export function recordedSeedings(): readonly Seeding[] {
  return seedings;
}

/** One line per seeding, and ours/PocketBase for equal counts; null when nothing was seeded over HTTP. */
export function seedingReport(): string | null {
  if (seedings.length === 0) return null;
  const rate = (s: Seeding) => s.records / s.seconds;
  const lines = seedings.map(
    (s) =>
      `- ${s.label}: ${s.records.toLocaleString("en-US")} records in ${s.seconds.toFixed(1)} s = ` +
      `${Math.round(rate(s)).toLocaleString("en-US")} records/s (${s.concurrency} POSTs in flight)`,
  );
  const pocketbase = seedings.find((s) => s.label === "PocketBase");
  for (const ours of seedings.filter((s) => s.label.startsWith("ours"))) {
    if (!pocketbase || pocketbase.records !== ours.records) continue;
    const ratio = rate(ours) / rate(pocketbase);
    lines.push(`- ${ours.label} / PocketBase creating ${ours.records.toLocaleString("en-US")} records: ${ratio.toFixed(2)}× the records/s`);
  }
  return `Creating records through HTTP before the load (one POST per record):\n${lines.join("\n")}`;
}
