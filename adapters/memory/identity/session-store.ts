import type { Session } from "../../../core/identity/model.ts";
import type { SessionStore } from "../../../core/identity/ports.ts";
import type { IdentityTables } from "./tables.ts";

export class MemorySessionStore implements SessionStore {
  constructor(private readonly t: IdentityTables) {}

  async insert(session: Session): Promise<void> {
    this.t.sessions.set(session.id, { ...session });
  }

  async get(sessionId: string): Promise<Session | null> {
    const s = this.t.sessions.get(sessionId);
    return s ? { ...s } : null;
  }

  async setExpiry(sessionId: string, expiresAt: string): Promise<void> {
    const s = this.t.sessions.get(sessionId);
    if (s) s.expires_at = expiresAt;
  }

  async delete(sessionId: string): Promise<void> {
    this.t.sessions.delete(sessionId);
  }

  async deleteAllOf(identityId: string): Promise<void> {
    for (const [id, s] of this.t.sessions) if (s.identity_id === identityId) this.t.sessions.delete(id);
  }
}
