export * from "./kind.ts";
export * from "./ports.ts";
