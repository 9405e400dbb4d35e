/** What the radar folder lends its neighbours: the transfer kind helper contacts builds its kinds with (ADR 072). */
export * from "./sql-kind.ts";
