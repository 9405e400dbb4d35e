import type { OAuthClient } from "../../../core/identity/model.ts";
import type { OAuthClientStore } from "../../../core/identity/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { IdentityCollections } from "./collections.ts";
import { clientDoc, fromClientDoc } from "./documents.ts";

export class MongoOAuthClientStore implements OAuthClientStore {
  constructor(private readonly c: IdentityCollections) {}

  async insert(client: OAuthClient): Promise<"ok" | "taken"> {
    try {
      await this.c.oauthClients.insertOne(clientDoc(client));
      return "ok";
    } catch (e) {
      if (isDuplicateKey(e)) return "taken";
      throw e;
    }
  }

  async get(clientId: string): Promise<OAuthClient | null> {
    const d = await this.c.oauthClients.findOne({ _id: clientId });
    return d ? fromClientDoc(d) : null;
  }

  async getMany(clientIds: string[]): Promise<OAuthClient[]> {
    if (clientIds.length === 0) return [];
    return (await this.c.oauthClients.find({ _id: { $in: clientIds } }).toArray()).map(fromClientDoc);
  }
}
