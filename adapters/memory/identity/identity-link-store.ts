import type { IdentityLink } from "../../../core/identity/model.ts";
import type { IdentityLinkStore } from "../../../core/identity/ports.ts";
import type { IdentityTables } from "./tables.ts";

const keyOf = (issuer: string, subject: string) => `${issuer} ${subject}`;

export class MemoryIdentityLinkStore implements IdentityLinkStore {
  constructor(private readonly t: IdentityTables) {}

  async get(issuer: string, subject: string): Promise<IdentityLink | null> {
    const l = this.t.identityLinks.get(keyOf(issuer, subject));
    return l ? { ...l } : null;
  }

  async insert(link: IdentityLink): Promise<"ok" | "taken"> {
    const key = keyOf(link.issuer, link.subject);
    const taken = this.t.identityLinks.has(key) ||
      [...this.t.identityLinks.values()].some((l) => l.issuer === link.issuer && l.identity_id === link.identity_id);
    if (taken) return "taken";
    this.t.identityLinks.set(key, { ...link });
    return "ok";
  }

  async deactivate(issuer: string, subject: string, at: string): Promise<IdentityLink | null> {
    const l = this.t.identityLinks.get(keyOf(issuer, subject));
    if (!l) return null;
    l.deactivated_at ??= at;
    return { ...l };
  }
}
