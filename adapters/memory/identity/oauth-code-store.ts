import type { AuthorizationCode, StoredCode } from "../../../core/identity/model.ts";
import type { CodeSpend, OAuthCodeStore } from "../../../core/identity/ports.ts";
import type { IdentityTables } from "./tables.ts";

/** Each method runs in one turn of the event loop: `spend` is a synchronous check-and-set. */
export class MemoryOAuthCodeStore implements OAuthCodeStore {
  constructor(private readonly t: IdentityTables) {}

  async insert(code: AuthorizationCode): Promise<void> {
    this.t.oauthCodes.set(code.code_hash, { ...structuredClone(code), spent_at: null, reused_at: null });
  }

  async spend(codeHash: string, at: string): Promise<CodeSpend | null> {
    const code = this.t.oauthCodes.get(codeHash);
    if (!code) return null;
    const first = code.spent_at === null;
    if (first) code.spent_at = at;
    else code.reused_at ??= at;
    return { code: structuredClone(code), first };
  }

  async get(codeHash: string): Promise<StoredCode | null> {
    const code = this.t.oauthCodes.get(codeHash);
    return code ? structuredClone(code) : null;
  }
}
