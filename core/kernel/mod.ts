export * from "./errors.ts";
export * from "./ids.ts";
export * from "./clock.ts";
export * from "./paging.ts";
export * from "./keyset-cursor.ts";
export * from "./validation.ts";
export * from "./literal-union.ts";
export * from "./query-params.ts";
