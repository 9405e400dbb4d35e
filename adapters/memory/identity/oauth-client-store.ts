import type { OAuthClient } from "../../../core/identity/model.ts";
import type { OAuthClientStore } from "../../../core/identity/ports.ts";
import type { IdentityTables } from "./tables.ts";

export class MemoryOAuthClientStore implements OAuthClientStore {
  constructor(private readonly t: IdentityTables) {}

  async insert(client: OAuthClient): Promise<"ok" | "taken"> {
    if (this.t.oauthClients.has(client.client_id)) return "taken";
    this.t.oauthClients.set(client.client_id, structuredClone(client));
    return "ok";
  }

  async get(clientId: string): Promise<OAuthClient | null> {
    const c = this.t.oauthClients.get(clientId);
    return c ? structuredClone(c) : null;
  }

  async getMany(clientIds: string[]): Promise<OAuthClient[]> {
    return clientIds.flatMap((id) => {
      const c = this.t.oauthClients.get(id);
      return c ? [structuredClone(c)] : [];
    });
  }
}
