import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { apiKey, stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const PAGE = { offset: 0, limit: 100 };

/** Access's objects: the bootstrap's key, a faceless service key that was used, a key of a former member's identity. */
export const accessSeeder: TransferSeeder = {
  module: "access",
  async seed(s: Stores, ws: BootstrapBundle) {
    const service = { ...apiKey(ws.workspace.id, null), name: "ci — déploiement" };
    await s.apiKeys.insert(service);
    await s.apiKeys.touch(ws.workspace.id, service.id, stamp());
    await s.apiKeys.insert(apiKey(ws.workspace.id, crypto.randomUUID()));
  },
  async verify(source: Stores, target: Stores, ws: BootstrapBundle, expect) {
    const keys = await source.apiKeys.list(ws.workspace.id, PAGE);
    expect(keys.total).toBe(3);
    expect(await target.apiKeys.list(ws.workspace.id, PAGE)).toEqual(keys);
    for (const k of keys.items) expect(await target.apiKeys.findByHash(k.key_hash)).toEqual(await source.apiKeys.findByHash(k.key_hash));
    // The bootstrap's key authenticates on the copy, acting as its owner.
    const match = await target.apiKeys.findByHash(ws.apiKey.key_hash);
    expect(match?.workspace.slug).toBe(ws.workspace.slug);
    expect(match?.member?.role).toBe("owner");
    expect(match?.key.key_ciphertext).toBe(ws.apiKey.key_ciphertext);
  },
};
