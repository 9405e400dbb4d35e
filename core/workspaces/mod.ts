/**
 * Workspaces: the tenant, its members and roles, areas and linked repos. Public surface of the
 * module; other modules and embedding apps import it from here.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./refs.ts";
export * from "./bootstrap.ts";
export * from "./workspace.ts";
export * from "./members.ts";
export * from "./areas.ts";
export * from "./repos.ts";
export * from "./transfer.ts";
