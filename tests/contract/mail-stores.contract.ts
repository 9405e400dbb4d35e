import type { TestApi } from "./kit/test-api.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, stamp } from "./fixtures.ts";

/**
 * The contract of mail's store port (core/mail/ports.ts): who left which list. Every adapter runs
 * it; the memory adapter is the reference.
 */
export function runMailStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: unsubscribe store`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    /** A person: the owner identity of a fresh workspace (stores may require it to exist). */
    const person = async () => (await bootstrapped(s)).owner.identity.id;

    test("UnsubscribeStore.add() is true the first time, false after; has() answers per list", async () => {
      const id = await person();
      expect(await s.unsubscribes.has(id, "membership")).toBe(false);
      expect(await s.unsubscribes.add(id, "membership", stamp())).toBe(true);
      expect(await s.unsubscribes.add(id, "membership", stamp())).toBe(false);
      expect(await s.unsubscribes.has(id, "membership")).toBe(true);
      expect(await s.unsubscribes.has(id, "shared_notes")).toBe(false);
      expect(await s.unsubscribes.has(await person(), "membership")).toBe(false);
    });

    test("UnsubscribeStore.add() of one person and list, 8 at once: exactly one is true", async () => {
      const id = await person();
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => s.unsubscribes.add(id, "shared_notes", stamp())));
      expect(outcomes.filter(Boolean).length).toBe(1);
      expect(await s.unsubscribes.has(id, "shared_notes")).toBe(true);
    });

    test("WorkspaceStore.delete() keeps a person's unsubscribes (they are the person's, not the workspace's)", async () => {
      const b = await bootstrapped(s);
      await s.unsubscribes.add(b.owner.identity.id, "billing", stamp());
      await s.workspaces.delete(b.workspace.id);
      expect(await s.unsubscribes.has(b.owner.identity.id, "billing")).toBe(true);
    });
  });
}
