/**
 * Access's transfer kinds (ADR 067). An API key moves as stored: its hash (found by it) and its
 * secret sealed under the server's SECRET_KEY, so both stores must run with the same key.
 */
export const ACCESS_TRANSFER_KINDS = {
  apiKeys: { name: "access.api_keys", tenant: true, key: ["id"] },
} as const;
