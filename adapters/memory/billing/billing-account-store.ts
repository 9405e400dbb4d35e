import type { BillingAccount, BillingAccountStore } from "../../../core/billing/account.ts";
import type { BillingTables } from "./tables.ts";

/** Accounts by workspace; every method runs in one turn of the event loop, so a put is a compare-and-set. */
export class MemoryBillingAccountStore implements BillingAccountStore {
  constructor(private t: BillingTables) {}

  async get(workspaceId: string): Promise<BillingAccount | null> {
    const a = this.t.billingAccounts.get(workspaceId);
    return a ? { ...a } : null;
  }

  async getMany(workspaceIds: readonly string[]): Promise<Map<string, BillingAccount>> {
    const out = new Map<string, BillingAccount>();
    for (const id of workspaceIds) {
      const a = this.t.billingAccounts.get(id);
      if (a) out.set(id, { ...a });
    }
    return out;
  }

  async getByCustomer(customerId: string): Promise<BillingAccount | null> {
    for (const a of this.t.billingAccounts.values()) if (a.customer_id === customerId) return { ...a };
    return null;
  }

  async put(account: BillingAccount, expected: number | null): Promise<boolean> {
    const stored = this.t.billingAccounts.get(account.workspace_id);
    if ((stored?.version ?? null) !== expected) return false;
    this.t.billingAccounts.set(account.workspace_id, { ...account });
    return true;
  }
}
