/**
 * What the other module folders of this adapter may use of credits's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
// A hot account's writers combined into one statement (ADR 050), and the account's rows as the
// ledger writes them: record creates and contact unlocks write the account in their own statements.
export { AccountBatches, type AccountWrite } from "./account-batches.ts";
export { availableOf, openAccount } from "./account-sql.ts";
export { ENTRY_COLUMNS, toEntry } from "./rows.ts";
