import type { MailList } from "../../../core/mail/model.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const LISTS: MailList[] = ["membership", "billing"];

/** Mail's kinds (core/mail/transfer.ts): the owner left two lists; the copy still knows, and a second leave is no news. */
export const mailSeeder: TransferSeeder = {
  module: "mail",
  async seed(s, ws) {
    for (const list of LISTS) await s.unsubscribes.add(ws.owner.identity.id, list, stamp());
  },
  async verify(source, target, ws, expect) {
    const person = ws.owner.identity.id;
    for (const list of LISTS) {
      expect(await source.unsubscribes.has(person, list)).toBe(true);
      expect(await target.unsubscribes.has(person, list)).toBe(true);
      expect(await target.unsubscribes.add(person, list, stamp())).toBe(false);
    }
    expect(await target.unsubscribes.has(person, "shared_notes")).toBe(false);
  },
};
