import type { MailList } from "../../../core/mail/model.ts";
import type { UnsubscribeStore } from "../../../core/mail/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { MailCollections } from "./collections.ts";

/** A person who left a list: `_id` is `<identity_id>:<list>`, so its insert is the add. */
export interface UnsubscribeDoc {
  _id: string;
  identity_id: string;
  list: MailList;
  unsubscribed_at: string;
}

/** The unique `_id` decides: of concurrent adds, exactly one insert succeeds (ADR 005). */
export class MongoUnsubscribeStore implements UnsubscribeStore {
  constructor(private readonly c: MailCollections) {}

  async add(identityId: string, list: MailList, at: string): Promise<boolean> {
    try {
      await this.c.unsubscribes.insertOne({ _id: `${identityId}:${list}`, identity_id: identityId, list, unsubscribed_at: at });
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }

  async has(identityId: string, list: MailList): Promise<boolean> {
    return (await this.c.unsubscribes.countDocuments({ _id: `${identityId}:${list}` }, { limit: 1 })) > 0;
  }
}
