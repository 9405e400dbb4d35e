import type { Session } from "../../../core/identity/model.ts";
import type { SessionStore } from "../../../core/identity/ports.ts";
import type { IdentityCollections } from "./collections.ts";

export class MongoSessionStore implements SessionStore {
  constructor(private readonly c: IdentityCollections) {}

  async insert(s: Session): Promise<void> {
    await this.c.authSessions.insertOne({ _id: s.id, identity_id: s.identity_id, created_at: s.created_at, expires_at: s.expires_at });
  }

  async get(sessionId: string): Promise<Session | null> {
    const d = await this.c.authSessions.findOne({ _id: sessionId });
    return d ? { id: d._id, identity_id: d.identity_id, created_at: d.created_at, expires_at: d.expires_at } : null;
  }

  async setExpiry(sessionId: string, expiresAt: string): Promise<void> {
    await this.c.authSessions.updateOne({ _id: sessionId }, { $set: { expires_at: expiresAt } });
  }

  async delete(sessionId: string): Promise<void> {
    await this.c.authSessions.deleteOne({ _id: sessionId });
  }

  async deleteAllOf(identityId: string): Promise<void> {
    await this.c.authSessions.deleteMany({ identity_id: identityId });
  }
}
