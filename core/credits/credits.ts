import type { Principal } from "../access/mod.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { decodeCursor, encodeCursor } from "../kernel/keyset-cursor.ts";
import { DEFAULT_LIMIT, parseBoundedInt } from "../kernel/paging.ts";
import type { QueryInt } from "../kernel/query-params.ts";
import { validationFailed } from "../kernel/errors.ts";
import { isUuid } from "../kernel/ids.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { GrantCreditsDto, GrantResult, LedgerPage } from "./dto.ts";
import { available, type LedgerTotals } from "./ledger-rules.ts";
import { type CreditAccount, LEDGER_ENTRY_TYPES, type LedgerEntryType } from "./model.ts";
import { assertCanGrantCredits, type CreditActor } from "./policy.ts";
import type { CreditDeps, LedgerFilter } from "./ports.ts";

export const accountOf = (t: LedgerTotals): CreditAccount => ({ balance: t.balance, held: t.held, available: available(t) });

/** The workspace's balance, held and available credits. Any member or service key may read them. */
export async function creditAccount(deps: CreditDeps, _principal: Principal, workspace: Workspace): Promise<CreditAccount> {
  return accountOf(await deps.stores.creditLedger.totals(workspace.id));
}

export interface LedgerQuery {
  limit?: QueryInt;
  cursor?: string;
  type?: string;
  run_id?: string;
}

/** The ledger newest first, filtered by entry type and run, paged by keyset (`cursor` → `nextCursor`). */
export async function creditHistory(
  deps: CreditDeps,
  _principal: Principal,
  workspace: Workspace,
  query: LedgerQuery,
): Promise<LedgerPage> {
  const limit = parseBoundedInt("limit", query.limit, 1, DEFAULT_LIMIT.max) ?? DEFAULT_LIMIT.default;
  const filter: LedgerFilter = {};
  if (query.type !== undefined) {
    if (!(LEDGER_ENTRY_TYPES as readonly string[]).includes(query.type)) {
      throw validationFailed(`Invalid type: expected one of ${LEDGER_ENTRY_TYPES.join(", ")}`, [{
        path: "query.type",
        message: "unknown",
      }]);
    }
    filter.type = query.type as LedgerEntryType;
  }
  if (query.run_id !== undefined) {
    if (!isUuid(query.run_id)) {
      throw validationFailed("Invalid run_id: expected a UUID", [{ path: "query.run_id", message: "expected a UUID" }]);
    }
    filter.run_id = query.run_id;
  }
  // A cursor continues the listing it came from only (same workspace and filter).
  const listing = { ledger: workspace.id, ...filter };
  const beforeSeq = query.cursor === undefined ? undefined : decodeCursor<number>(query.cursor, listing);
  if (beforeSeq !== undefined && !Number.isSafeInteger(beforeSeq)) {
    throw validationFailed("Invalid cursor: it is not a cursor this API issued", [{ path: "query.cursor", message: "malformed" }]);
  }
  const rows = await deps.stores.creditLedger.history(workspace.id, filter, { limit: limit + 1, beforeSeq });
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > limit && last ? encodeCursor(listing, last.seq) : null };
}

export interface GrantOptions {
  /** The request's `Idempotency-Key`: the ledger writes one grant per key, even if the answer was lost. */
  idempotencyKey?: string | null;
}

/** Adds credits to a workspace's balance: the platform operator's alone (policy.ts). */
export async function grantCredits(
  deps: CreditDeps,
  actor: CreditActor,
  workspace: Workspace,
  dto: GrantCreditsDto,
  opts: GrantOptions = {},
): Promise<GrantResult> {
  assertCanGrantCredits(actor);
  const now = deps.clock.now();
  const outcome = await deps.stores.creditLedger.append({
    workspace_id: workspace.id,
    id: uuidv7(now.getTime()),
    at: now.toISOString(),
    op: { type: "grant", amount: dto.amount },
    reason: dto.reason ?? null,
    idempotency_key: opts.idempotencyKey ? `grant:${opts.idempotencyKey}` : null,
  });
  // A grant cannot be refused; anything else is a broken store.
  if (!outcome.ok) throw new Error(`Cannot grant credits: the ledger refused (${outcome.reason})`);
  const { entry } = outcome;
  const balance = accountOf({ seq: entry.seq, balance: entry.balance_after, held: entry.held_after });
  if (!outcome.replayed) {
    await emit(deps, workspace.id, "credits.granted", null, { entry_id: entry.id, amount: dto.amount, balance: balance.balance });
  }
  return { entry, balance };
}
