/**
 * Outbound requests a tenant chooses the target of (a repo's clone URL; outbound webhooks next):
 * the rule that they reach public addresses only, as pure functions over an injected resolver.
 * Public surface of the module.
 */
export * from "./ports.ts";
export * from "./ip-address.ts";
export * from "./address-class.ts";
export * from "./outbound-host.ts";
