import type { BillingAccount, BillingAccountStore } from "../../../core/billing/account.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { BillingAccountDoc, BillingCollections } from "./collections.ts";

function toAccount(d: BillingAccountDoc): BillingAccount {
  const { _id: _, ...rest } = d;
  return { ...rest, status: rest.status as BillingAccount["status"], plan: rest.plan as BillingAccount["plan"] };
}

/**
 * Insert-only versions (ADR 005: FerretDB v1 has no atomic conditional update): a put inserts
 * version `expected + 1` under the unique `_id` `<workspace>:<version>`, so of concurrent puts
 * naming one version exactly one inserts. The insert is kept only if the version read is still
 * there and none newer exists: a writer that read long ago could insert a version already
 * deleted, or name a version never written; it then takes its insert back and reports a lost race.
 */
export class MongoBillingAccountStore implements BillingAccountStore {
  constructor(private readonly c: BillingCollections) {}

  async get(workspaceId: string): Promise<BillingAccount | null> {
    const d = await this.c.billingAccounts.find({ workspace_id: workspaceId }).sort({ version: -1 }).limit(1).next();
    return d ? toAccount(d) : null;
  }

  async getMany(workspaceIds: readonly string[]): Promise<Map<string, BillingAccount>> {
    const ids = [...new Set(workspaceIds)];
    if (ids.length === 0) return new Map();
    // Every version of the page's workspaces (a few a month each); the newest wins.
    const docs = await this.c.billingAccounts.find({ workspace_id: { $in: ids } }).sort({ workspace_id: 1, version: -1 }).toArray();
    const out = new Map<string, BillingAccount>();
    for (const d of docs) if (!out.has(d.workspace_id)) out.set(d.workspace_id, toAccount(d));
    return out;
  }

  async getByCustomer(customerId: string): Promise<BillingAccount | null> {
    // A customer, once recorded, is never replaced: any version naming it names the workspace.
    const d = await this.c.billingAccounts.find({ customer_id: customerId }).limit(1).next();
    return d ? this.get(d.workspace_id) : null;
  }

  async put(a: BillingAccount, expected: number | null): Promise<boolean> {
    // The insert of `<workspace>:<version>` is the compare-and-set, and version keys are never
    // freed: a writer that read version v can only ever add v + 1 once, and nothing it wrote is
    // visible before it holds. (Deleting older versions let a writer that read long ago insert a
    // number freed meanwhile, so readers could see a version that was then taken back, and an
    // event could be judged stale against a state that never held: found by the contract suite.)
    const version = (expected ?? 0) + 1;
    // The version it follows must have been written (a version named wrongly writes nothing).
    if (expected !== null && (await this.c.billingAccounts.countDocuments({ _id: `${a.workspace_id}:${expected}` })) === 0) return false;
    try {
      await this.c.billingAccounts.insertOne({ ...a, version, _id: `${a.workspace_id}:${version}` });
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }
}
