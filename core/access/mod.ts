/**
 * Access: principals, API keys and their authentication, the shared permission vocabulary
 * (policy.ts), the secret box and the rate-limit rule. Public surface of the module.
 */
export * from "./principal.ts";
export * from "./policy.ts";
export * from "./scopes.ts";
export * from "./ports.ts";
export * from "./model.ts";
export * from "./dto.ts";
export * from "./raw-key.ts";
export * from "./api-keys.ts";
export * from "./authenticate.ts";
export * from "./secret-box.ts";
export * from "./rate-limit.ts";
export * from "./authority.ts";
export * from "./transfer.ts";
