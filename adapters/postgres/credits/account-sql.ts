import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";

/**
 * The account row's two helpers every ledger write shares (this module's ledger store and radar's
 * unlock, which holds and captures in its own statements): what is available, and opening the
 * account of a workspace's first entry.
 */

/** balance − held of the workspace's account; null when it has none yet. */
export async function availableOf(db: SqlDriver, workspaceId: string): Promise<number | null> {
  const [account] = await db.query<Row>(`select balance, held from credit_accounts where workspace_id = $1`, [workspaceId]);
  return account ? Number(account.balance) - Number(account.held) : null;
}

/** Opens the workspace's account (zeros), if not open already. */
export async function openAccount(db: SqlDriver, workspaceId: string): Promise<void> {
  await db.query(`insert into credit_accounts (workspace_id) values ($1) on conflict do nothing`, [workspaceId]);
}
