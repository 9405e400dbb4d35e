import type { IdentityLink } from "../../../core/identity/model.ts";
import type { IdentityLinkStore } from "../../../core/identity/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { IdentityCollections } from "./collections.ts";
import { fromLinkDoc, linkId } from "./documents.ts";

/** `_id` is `(issuer, subject)`; `(issuer, identity_id)` is a unique index: either refuses an insert. */
export class MongoIdentityLinkStore implements IdentityLinkStore {
  constructor(private readonly c: IdentityCollections) {}

  async get(issuer: string, subject: string): Promise<IdentityLink | null> {
    const d = await this.c.identityLinks.findOne({ _id: linkId(issuer, subject) });
    return d ? fromLinkDoc(d) : null;
  }

  async insert(link: IdentityLink): Promise<"ok" | "taken"> {
    try {
      await this.c.identityLinks.insertOne({ _id: linkId(link.issuer, link.subject), ...link });
      return "ok";
    } catch (e) {
      if (isDuplicateKey(e)) return "taken";
      throw e;
    }
  }

  async deactivate(issuer: string, subject: string, at: string): Promise<IdentityLink | null> {
    const _id = linkId(issuer, subject);
    await this.c.identityLinks.updateOne({ _id, deactivated_at: null }, { $set: { deactivated_at: at } });
    return this.get(issuer, subject);
  }
}
