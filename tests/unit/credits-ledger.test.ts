import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { applyChange, EMPTY_TOTALS, isRefusal, type LedgerOp, type LedgerTotals, planChange } from "../../core/credits/ledger-rules.ts";
import type { LedgerEntry } from "../../core/credits/model.ts";
import { canGrantCredits, PLATFORM_OPERATOR } from "../../core/credits/policy.ts";
import { DEFAULT_PRICES, parsePrices } from "../../core/contacts/prices.ts";

/** A seeded generator (mulberry32): every run replays the same sequences, a failure names its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0;
  };
}

/** The oracle: the ledger as plain bookkeeping, written without the rules under test. */
class Oracle {
  balance = 0;
  holds = new Map<string, { amount: number; resolved: boolean }>();
  get held() {
    let h = 0;
    for (const x of this.holds.values()) if (!x.resolved) h += x.amount;
    return h;
  }
  /** What the ledger must answer: accepted, or the reason it refuses. */
  apply(id: string, op: LedgerOp): "ok" | string {
    const free = this.balance - this.held;
    switch (op.type) {
      case "grant":
        this.balance += op.amount;
        return "ok";
      case "debit":
        if (op.amount > free) return "insufficient";
        this.balance -= op.amount;
        return "ok";
      case "hold":
        if (op.amount > free) return "insufficient";
        this.holds.set(id, { amount: op.amount, resolved: false });
        return "ok";
      case "resolve": {
        const h = this.holds.get(op.hold_id);
        if (!h) return "hold_not_found";
        if (h.resolved) return "hold_resolved";
        if (op.capture > h.amount) return "capture_exceeds_hold";
        h.resolved = true;
        this.balance -= op.capture;
        return "ok";
      }
    }
  }
}

describe("ledger rules against an oracle", () => {
  for (let seed = 1; seed <= 200; seed++) {
    test(`planChange() and applyChange() agree with the oracle on 200 random operations (seed ${seed})`, () => {
      const r = rng(seed);
      const oracle = new Oracle();
      let totals: LedgerTotals = EMPTY_TOTALS;
      const entries = new Map<string, LedgerEntry>();
      const resolved = new Set<string>();
      const holdIds: string[] = [];
      for (let i = 0; i < 200; i++) {
        const id = `e${i}`;
        const kind = r(10);
        const op: LedgerOp = kind < 2
          ? { type: "grant", amount: 1 + r(20) }
          : kind < 5
          ? { type: "debit", amount: 1 + r(10) }
          : kind < 7
          ? { type: "hold", amount: 1 + r(10) }
          : { type: "resolve", hold_id: holdIds.length && r(8) ? holdIds[r(holdIds.length)]! : `nope${i}`, capture: r(12) };
        const expected = oracle.apply(id, op);
        // The store's part: a hold resolves once (its unique key).
        if (op.type === "resolve" && resolved.has(op.hold_id)) {
          expect(expected).toBe("hold_resolved");
          continue;
        }
        const change = planChange(totals, op, op.type === "resolve" ? entries.get(op.hold_id) ?? null : null);
        expect(isRefusal(change) ? change.reason : "ok").toBe(expected);
        if (isRefusal(change)) {
          if (change.reason === "insufficient") expect(change.available).toBe(totals.balance - totals.held);
          continue;
        }
        totals = applyChange(totals, change);
        const entry = { id, seq: totals.seq, type: change.type, amount: change.amount, held: change.held } as LedgerEntry;
        entries.set(id, entry);
        if (change.type === "hold") holdIds.push(id);
        if (change.hold_id) resolved.add(change.hold_id);
        expect({ balance: totals.balance, held: totals.held }).toEqual({ balance: oracle.balance, held: oracle.held });
        expect(totals.balance - totals.held).toBeGreaterThanOrEqual(0);
        expect(totals.held).toBeGreaterThanOrEqual(0);
      }
      // Σ amount is the balance and Σ held the held credits.
      const all = [...entries.values()];
      expect(all.reduce((s, e) => s + e.amount, 0)).toBe(totals.balance);
      expect(all.reduce((s, e) => s + e.held, 0)).toBe(totals.held);
    });
  }
});

describe("credits policy and prices", () => {
  test("canGrantCredits() is true for the platform operator only, owners included refused", () => {
    expect(canGrantCredits(PLATFORM_OPERATOR)).toBe(true);
    const owner = {
      workspaceId: "w",
      kind: "identity",
      identityId: "i",
      memberId: "m",
      role: "owner",
      via: "api_key",
      credentialId: "k",
      scopes: API_KEY_SCOPES,
    } as const;
    expect(canGrantCredits(owner)).toBe(false);
    expect(canGrantCredits({ ...owner, kind: "service", identityId: null, memberId: null, role: null })).toBe(false);
  });

  test("parsePrices() overrides the defaults it names and refuses unknown names and non-integers", () => {
    expect(parsePrices(undefined)).toEqual(DEFAULT_PRICES);
    expect(parsePrices('{"email":5}')).toEqual({ ...DEFAULT_PRICES, email: 5 });
    expect(() => parsePrices('{"emial":5}')).toThrow(/RADAR_PRICES/);
    expect(() => parsePrices('{"email":1.5}')).toThrow(/RADAR_PRICES/);
    expect(() => parsePrices('{"email":-1}')).toThrow(/RADAR_PRICES/);
    expect(() => parsePrices("[1]")).toThrow(/RADAR_PRICES/);
    expect(() => parsePrices("nope")).toThrow(/RADAR_PRICES/);
  });
});
