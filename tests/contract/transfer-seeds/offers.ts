import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { BillingOffer, Contract } from "../../../core/offers/model.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const LATER = "2099-01-01T00:00:00.000Z";
const seeded = new Map<string, { open: string; accepted: string; superseded: string; next: string }>();

/**
 * Offers' kinds (core/offers/transfer.ts): an open offer, an accepted one (effects pending), a
 * superseded one and its reissue; an enterprise contract with its next grant due. On the copy
 * each reads the same, the pending effects and the grant are still due, and the open offer still
 * leaves `open` once.
 */
export const offerSeeder: TransferSeeder = {
  module: "offers",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const offer = (over: Partial<BillingOffer> = {}): BillingOffer => {
      const at = stamp();
      return {
        id: uuidv7(),
        workspace_id: wsId,
        plan: "enterprise",
        limits: { members: 500, topics: null },
        price: { amount: 1_250_000, currency: "eur", interval: "year" },
        term_months: 12,
        radar_credits: 1_000_000_000_000,
        expires_at: LATER,
        note: "Remise négociée — 10 % ✓",
        status: "open",
        revision: 1,
        supersedes: null,
        superseded_by: null,
        created_at: at,
        updated_at: at,
        accepted_at: null,
        cancelled_at: null,
        superseded_at: null,
        ...over,
      };
    };
    const open = offer({
      plan: "team",
      limits: null,
      radar_credits: null,
      note: null,
      price: { amount: 9900, currency: "eur", interval: "month" },
    });
    const accepted = offer();
    const old = offer();
    for (const o of [open, accepted, old]) await s.offers.insert(o);
    if (!(await s.offers.close(accepted.id, "accepted", stamp()))) throw new Error("seed: offer not accepted");
    const next = offer({ revision: 2, supersedes: old.id });
    if (!(await s.offers.supersede(old.id, next, stamp()))) throw new Error("seed: offer not superseded");
    const started = stamp();
    const contract: Contract = {
      workspace_id: wsId,
      plan: "enterprise",
      limits: { members: 500, records: 2_000_000 },
      price: accepted.price,
      term_months: 12,
      note: null,
      started_at: started,
      term_ends_at: "2027-01-01T00:00:00.000Z",
      source: "offer",
      offer_id: accepted.id,
      updated_at: stamp(),
    };
    await s.contracts.put(contract, "2026-02-01T00:00:00.000Z");
    seeded.set(wsId, { open: open.id, accepted: accepted.id, superseded: old.id, next: next.id });
  },
  async verify(source, target, ws, expect) {
    const wsId = ws.workspace.id;
    const x = seeded.get(wsId)!;
    const now = new Date().toISOString();
    const page = { offset: 0, limit: 50 };
    expect(await target.offers.list({ workspace_id: wsId }, now, page)).toEqual(
      await source.offers.list({ workspace_id: wsId }, now, page),
    );
    for (const id of Object.values(x)) expect(await target.offers.get(id)).toEqual(await source.offers.get(id));
    expect((await target.offers.get(x.superseded))?.superseded_by).toBe(x.next);
    expect(await target.offers.hasPendingEffects(x.accepted)).toBe(true);
    expect((await target.offers.pendingEffects(now, 1000)).some((o) => o.id === x.accepted)).toBe(true);
    expect(await target.contracts.get(wsId)).toEqual(await source.contracts.get(wsId));
    expect(await target.contracts.grantsOf(wsId)).toEqual(await source.contracts.grantsOf(wsId));
    expect((await target.contracts.dueGrants(now, 1000)).some((d) => d.workspace_id === wsId)).toBe(true);
    // Closed offers stay closed on the copy; the open one leaves `open` once.
    expect(await target.offers.close(x.superseded, "cancelled", now)).toBeNull();
    expect(await target.offers.close(x.accepted, "cancelled", now)).toBeNull();
    expect((await target.offers.close(x.open, "cancelled", now))?.status).toBe("cancelled");
    expect(await target.offers.close(x.open, "accepted", now)).toBeNull();
  },
};
