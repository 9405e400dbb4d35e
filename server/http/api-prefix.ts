/**
 * Where the API is mounted: every documented path starts with it. Here, beside the rest of the
 * HTTP plumbing, so routes that build links and cookie paths with it need not import the app
 * that mounts them (ADR 062).
 */
export const API_PREFIX = "/api/v1";
