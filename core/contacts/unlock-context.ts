import type { CollectionStores } from "../collections/mod.ts";
import type { ContactUnlockStore, UnlockContext } from "./ports.ts";

/**
 * `ContactUnlockStore.unlockContext` as the collection and radar stores' own reads, one after another:
 * what a backend without a single statement for it answers (memory, MongoDB).
 */
export async function unlockContextOfStores(
  stores: CollectionStores,
  radar: Pick<ContactUnlockStore, "unlocksOf">,
  workspaceId: string,
  collectionId: string,
  recordIds: readonly string[],
): Promise<UnlockContext | null> {
  const collection = await stores.collections.get(workspaceId, collectionId);
  if (!collection) return null;
  const records = await stores.records.getMany(workspaceId, collectionId, recordIds);
  const entityIds = [...new Set(records.flatMap((r) => (r.entity_id ? [r.entity_id] : [])))];
  const entities = entityIds.length ? await stores.entities.getMany(workspaceId, entityIds) : [];
  const unlocks = entities.length ? await radar.unlocksOf(workspaceId, entities.map((e) => e.id)) : [];
  return { collection, records, entities, unlocks };
}
