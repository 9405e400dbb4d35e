/**
 * The "deals" records of the collections benchmark: a deterministic pipeline of N deals, the same
 * for our API and for PocketBase (seeded sfc32 PRNG, no dependency). Record i is a function of the
 * seed and i only, so both products get the same rows in the same order.
 *
 *   company     "<Name> <i>", ~30 company names
 *   amount      integer 0..20,000 (uniform)
 *   owner       one of 12 owners
 *   close_date  a date in 2026-2027 (YYYY-MM-DD)
 *   status      lead 30%, qualified 20%, proposal 15%, negotiation 10%, won 15%, lost 10%
 *
 * `bun bench/datasets/deals.ts 100000` prints what a count generates.
 */
import { Random } from "./topics.ts";

export const DEALS_SEED = 0xdea15;

export const STAGES = ["lead", "qualified", "proposal", "negotiation", "won", "lost"] as const;
export type Stage = (typeof STAGES)[number];

/** Cumulative shares of STAGES. */
const STAGE_WEIGHTS = [0.3, 0.2, 0.15, 0.1, 0.15, 0.1];

const COMPANIES = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Stark",
  "Wayne",
  "Wonka",
  "Tyrell",
  "Cyberdyne",
  "Soylent",
  "Gringotts",
  "Vandelay",
  "Pied Piper",
  "Aperture",
  "Oscorp",
  "Monarch",
  "Dunder",
  "Massive",
  "Vehement",
  "Nakatomi",
  "Bluth",
  "Prestige",
  "Sterling",
  "Krusty",
  "Gekko",
  "Ollivander",
  "Zorg",
  "Weyland",
  "Virtucon",
];
const OWNERS = ["kim", "ana", "li", "omar", "sara", "jon", "mei", "raj", "eva", "tom", "zoe", "ivan"];

export interface Deal {
  company: string;
  amount: number;
  owner: string;
  close_date: string;
  status: Stage;
}

/** The filtered query of the benchmark: status = qualified and amount ≥ 5,000. */
export const FILTER = { status: "qualified" as Stage, minAmount: 5_000 };

/** The body of every request of the create scenarios (our shape; PocketBase's is flat). */
export const CREATE_DEAL: Deal = { company: "Acme 123", amount: 7_300, owner: "kim", close_date: "2026-12-01", status: "qualified" };

function pickStage(u: number): Stage {
  let acc = 0;
  for (let i = 0; i < STAGES.length; i++) {
    acc += STAGE_WEIGHTS[i]!;
    if (u < acc) return STAGES[i]!;
  }
  return STAGES[STAGES.length - 1]!;
}

/** Deal number `i` (0-based) of the dataset. */
export function dealAt(i: number, seed = DEALS_SEED): Deal {
  // A PRNG per record (seeded by the index): any record without generating the ones before it.
  const random = new Random((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
  const company = `${COMPANIES[random.int(0, COMPANIES.length - 1)]} ${i}`;
  const amount = random.int(0, 20_000);
  const owner = OWNERS[random.int(0, OWNERS.length - 1)]!;
  const day = random.int(0, 729);
  const close = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
  const status = pickStage(random.next());
  return { company, amount, owner, close_date: close, status };
}

/**
 * How deep the deep-page scenarios read: 90% of the records (90,000 of 100,000), rounded down to a
 * whole page of 50, so that PocketBase's `page` lands on the same position.
 */
export function deepOffset(count: number, pageSize = 50): number {
  return Math.floor((count * 0.9) / pageSize) * pageSize;
}

export interface DealStats {
  count: number;
  byStatus: Record<Stage, number>;
  /** Records matching FILTER. */
  filtered: number;
}

export function dealStats(count: number, seed = DEALS_SEED): DealStats {
  const byStatus = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  let filtered = 0;
  for (let i = 0; i < count; i++) {
    const deal = dealAt(i, seed);
    byStatus[deal.status]++;
    if (deal.status === FILTER.status && deal.amount >= FILTER.minAmount) filtered++;
  }
  return { count, byStatus, filtered };
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? 100_000);
  for (let i = 0; i < 3; i++) console.log(dealAt(i));
  const stats = dealStats(count);
  console.log(`${count} deals:`, stats.byStatus, `status=${FILTER.status} and amount>=${FILTER.minAmount}: ${stats.filtered}`);
  console.log(`deep page at offset ${deepOffset(count)}`);
}
