/**
 * What the other module folders of this adapter may use of credits's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { CreditTables } from "./tables.ts";
// The ledger over the same tables: contacts holds and resolves an unlock's credits in the turn it claims and settles.
export { MemoryCreditLedgerStore } from "./credit-ledger-store.ts";
