import type { BillingAccount } from "../../../core/billing/account.ts";
import { stamp, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

/**
 * Billing's kinds (core/billing/transfer.ts): an account written twice (version 2, a customer, a
 * period, a large event time). On the copy it reads the same, by workspace and by customer, and
 * the next compare-and-set goes on from its version. Plan usage is derived, not moved: where the
 * copy holds the workspace's items, its counts are the same.
 */
export const billingSeeder: TransferSeeder = {
  module: "billing",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const first: BillingAccount = {
      workspace_id: wsId,
      customer_id: null,
      subscription_id: null,
      status: "none",
      plan: null,
      current_period_start: null,
      current_period_end: null,
      last_event_created: null,
      updated_at: stamp(),
      version: 1,
    };
    if (!(await s.billingAccounts.put(first, null))) throw new Error("seed: account not put");
    const second: BillingAccount = {
      ...first,
      customer_id: unique("cus"),
      subscription_id: unique("sub"),
      status: "active",
      plan: "team",
      current_period_start: stamp(),
      current_period_end: stamp(),
      last_event_created: 1_893_456_000,
      updated_at: stamp(),
      version: 2,
    };
    if (!(await s.billingAccounts.put(second, 1))) throw new Error("seed: account not put");
    await s.planUsage.usage(wsId);
  },
  async verify(source, target, ws, expect) {
    const wsId = ws.workspace.id;
    const account = await source.billingAccounts.get(wsId);
    expect(account?.version).toBe(2);
    expect(await target.billingAccounts.get(wsId)).toEqual(account);
    expect(await target.billingAccounts.getByCustomer(account!.customer_id!)).toEqual(account);
    expect(await target.billingAccounts.put({ ...account!, version: 3, updated_at: stamp() }, 1)).toBe(false);
    expect(await target.billingAccounts.put({ ...account!, status: "past_due", version: 3, updated_at: stamp() }, 2)).toBe(true);
    if (await target.workspaces.getById(wsId)) expect(await target.planUsage.usage(wsId)).toEqual(await source.planUsage.usage(wsId));
  },
};
