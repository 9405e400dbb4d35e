import type { TransferKind } from "./store-transfer.ts";

/** What a module declares of a kind, the same on every adapter: its name, tenancy and key (ADR 067). */
export type TransferKindSpec = Pick<TransferKind, "name" | "tenant" | "key">;
