import { isDuplicateKey } from "../duplicate-key.ts";
import type { IdentityCollections } from "./collections.ts";

/** Inserts a claim: true for the one insert that wins its `_id`, false for every other (ADR 005). */
export async function claim(c: IdentityCollections, id: string, workspaceId: string, at: string): Promise<boolean> {
  try {
    await c.oauthClaims.insertOne({ _id: id, workspace_id: workspaceId, at });
    return true;
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
}

/** The instants of the claims that exist among `ids`, by id. */
export async function claimsAt(c: IdentityCollections, ids: string[]): Promise<Map<string, string>> {
  const docs = await c.oauthClaims.find({ _id: { $in: ids } }).toArray();
  return new Map(docs.map((d) => [d._id, d.at]));
}
