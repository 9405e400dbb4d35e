/**
 * What the other module folders of this adapter may use of credits's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
// The ledger of the same database (one per process: it remembers each account's head); contacts holds and captures through it.
export type { MongoCreditLedgerStore } from "./credit-ledger-store.ts";
