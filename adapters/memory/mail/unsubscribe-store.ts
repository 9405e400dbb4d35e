import type { MailList } from "../../../core/mail/model.ts";
import type { UnsubscribeStore } from "../../../core/mail/ports.ts";
import type { MailTables } from "./tables.ts";

export class MemoryUnsubscribeStore implements UnsubscribeStore {
  constructor(private t: MailTables) {}

  async add(identityId: string, list: MailList, at: string): Promise<boolean> {
    const key = `${identityId}:${list}`;
    if (this.t.unsubscribes.has(key)) return false;
    this.t.unsubscribes.set(key, at);
    return true;
  }

  async has(identityId: string, list: MailList): Promise<boolean> {
    return this.t.unsubscribes.has(`${identityId}:${list}`);
  }
}
