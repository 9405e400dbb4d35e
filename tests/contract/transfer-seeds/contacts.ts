import type { ContactUnlock } from "../../../core/contacts/model.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

/** The entities seeded per workspace, for `verify`. */
const seeded = new Map<string, string[]>();

const FAR = "2099-01-01T00:00:00.000Z";

/**
 * Contacts' part of the transfer contract: unlocks settled (a value, a miss) through a paid
 * request, and a request still in flight (its claims pending, its hold's lease not ended).
 */
export const contactsSeeder: TransferSeeder = {
  module: "contacts",
  async seed(s: Stores, b: BootstrapBundle) {
    const ws = b.workspace.id;
    const [paid, open] = [uuidv7(), uuidv7()];
    await s.creditLedger.append({ workspace_id: ws, id: uuidv7(), at: stamp(), op: { type: "grant", amount: 100 } });
    const claimed_at = new Date().toISOString();
    const claim = (entity: string, kind: ContactUnlock["kind"], token: string): ContactUnlock => ({
      workspace_id: ws,
      entity_id: entity,
      kind,
      state: "pending",
      value: null,
      credits: 0,
      token,
      claimed_at,
      settled_at: null,
    });
    const first = uuidv7();
    const asked = [claim(paid, "email", first), claim(paid, "phone", first), claim(paid, "linkedin", first)];
    const begun = await s.contactUnlocks.beginUnlocks(asked, { amount: 20, reason: "contact unlock", lease_until: FAR }, claimed_at);
    if (!begun.ok) throw new Error("seed: the unlock was refused");
    const settledAt = stamp();
    const settles: ContactUnlock[] = [
      { ...asked[0]!, state: "unlocked", value: "zoë.müller+radar@example.com", credits: 4, settled_at: settledAt },
      { ...asked[1]!, state: "unavailable", value: null, credits: 0, settled_at: settledAt },
      { ...asked[2]!, state: "unlocked", value: "https://www.linkedin.com/in/zoë-🚀", credits: 8, settled_at: settledAt },
    ];
    await s.contactUnlocks.finishUnlocks(ws, first, settles, { id: uuidv7(), at: stamp(), reason: "contact unlock" });
    // A request in flight: its claim pending, its lease ending far ahead.
    const second = uuidv7();
    const inFlight = await s.contactUnlocks.beginUnlocks(
      [claim(open, "email", second)],
      { amount: 4, reason: null, lease_until: FAR },
      claimed_at,
    );
    if (!inFlight.ok) throw new Error("seed: the second unlock was refused");
    seeded.set(ws, [paid, open]);
  },

  async verify(source, target, b, expect) {
    const ws = b.workspace.id;
    const entities = seeded.get(ws)!;
    const sorted = (us: ContactUnlock[]) => us.sort((a, c) => `${a.entity_id}:${a.kind}` < `${c.entity_id}:${c.kind}` ? -1 : 1);
    const theirs = sorted(await source.contactUnlocks.unlocksOf(ws, entities));
    expect(theirs.length).toBe(4);
    expect(sorted(await target.contactUnlocks.unlocksOf(ws, entities))).toEqual(theirs);
    expect(await target.contactUnlocks.unlocksOf(uuidv7(), entities)).toEqual([]);
    // The request in flight is swept on the copy when it would be on the source.
    const leases = async (s: Stores, now: string) =>
      (await s.contactUnlocks.expiredUnlocks(now, 1000)).filter((l) => l.workspace_id === ws);
    expect(await leases(target, "2099-01-01T00:00:00.001Z")).toEqual(await leases(source, "2099-01-01T00:00:00.001Z"));
    expect((await leases(target, "2099-01-01T00:00:00.001Z")).length).toBe(1);
    expect(await leases(target, FAR)).toEqual([]);
    // A settled path is answered as it stands, never claimed again.
    const unlocked = theirs.find((u) => u.state === "unlocked")!;
    const again = await target.contactUnlocks.beginUnlocks(
      [{ ...unlocked, state: "pending", value: null, credits: 0, token: uuidv7(), claimed_at: new Date().toISOString(), settled_at: null }],
      null,
      new Date().toISOString(),
    );
    expect(again).toEqual({ ok: true, hold: null, claims: [{ claimed: false, existing: unlocked }] });
  },
};
