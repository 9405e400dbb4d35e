import type { ApiKeyRecord } from "../../../core/access/model.ts";

/** The in-memory tables of access (the adapter's composition shares one object of every module's tables). */
export class AccessTables {
  apiKeys = new Map<string, ApiKeyRecord>();
  apiKeyIdByHash = new Map<string, string>();
}
