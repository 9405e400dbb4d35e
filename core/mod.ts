/**
 * The service's domain as a runtime-neutral library (Deno, Bun, Node): models, rules, use cases
 * and the ports an embedding app implements (or takes from `adapters/`). What an embedding app
 * sees is each module's public surface (its mod.ts), plus the two composition types every use
 * case is given, which belong to no module.
 */
export type { ComposedDeps } from "./deps.ts";
export type { Stores, StoreStatus } from "./stores.ts";

export * from "./kernel/mod.ts";
export * from "./workspaces/mod.ts";
export * from "./access/mod.ts";
export * from "./events/mod.ts";
export * from "./jobs/mod.ts";
export * from "./webhooks/mod.ts";
export * from "./topics/mod.ts";
export * from "./code-context/mod.ts";
export * from "./sharing/mod.ts";
export * from "./collections/mod.ts";
export * from "./credits/mod.ts";
export * from "./radar/mod.ts";
export * from "./contacts/mod.ts";
export * from "./billing/mod.ts";
export * from "./offers/mod.ts";
export * from "./identity/mod.ts";
export * from "./blog/mod.ts";
export * from "./mail/mod.ts";
export * from "./support-desk/mod.ts";
export * from "./outbound/mod.ts";
export * from "./portability/mod.ts";
