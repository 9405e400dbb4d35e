import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { authenticateApiKey } from "../../core/access/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { importMarkdownTopics } from "../../core/topics/mod.ts";
import { bootstrapWorkspace } from "../../core/workspaces/mod.ts";
import { TEST_SECRET } from "../support/test-app.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runTopicImportSuite, tarGz, VAULT } from "./topic-import.suite.ts";

// The same archives on every backend: an import must not depend on where topics are kept.
runTopicImportSuite("Markdown import on memory", async () => createMemoryStores());
// Opened at load, not in a hook: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runTopicImportSuite("Markdown import on pglite", async () => pglite);
const postgres = await sharedPostgres();
runTopicImportSuite("Markdown import on postgres", async () => openPostgresStores(await freshDatabase(postgres)));
const mongo = await sharedMongo();
runTopicImportSuite("Markdown import on mongo", async () => openMongoStores(freshMongoDatabase(mongo)));

// MongoDB has no transaction to undo a failed import: running it again must complete it.
describe("Markdown import on mongo, interrupted", () => {
  test("a failure while writing relations leaves the topics; the same import again completes it, creating nothing twice", async () => {
    const stores = await openMongoStores(freshMongoDatabase(mongo));
    try {
      let failing = true;
      const relations = new Proxy(stores.relations, {
        get(target, key) {
          if (key === "insert" && failing) return () => Promise.reject(new Error("connection lost"));
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const deps: ComposedDeps = { stores: { ...stores, relations }, clock: systemClock, secretBox: await createSecretBox(TEST_SECRET) };
      const boot = await bootstrapWorkspace(deps, null, { slug: "md-resume", owner_email: "resume@example.com" });
      const { principal, workspace } = await authenticateApiKey(deps, boot.api_key.key);
      const run = async () => importMarkdownTopics(deps, principal, workspace, new Blob([await tarGz(VAULT)]).stream(), {}, 1 << 20);

      await expect(run()).rejects.toThrow("connection lost");
      expect((await stores.topics.list(workspace.id, {}, { limit: 10, offset: 0 })).total).toBe(4);
      expect(await stores.relations.list(workspace.id, 10)).toEqual([]);

      failing = false;
      const again = await run();
      expect(again.counts).toEqual({ created: 0, updated: 0, suggested: 0, unchanged: 4, skipped: 2 });
      expect(again.relations).toMatchObject({ created: 3, unchanged: 0 });
      expect((await stores.topics.list(workspace.id, {}, { limit: 10, offset: 0 })).total).toBe(4);
      expect((await stores.relations.list(workspace.id, 10)).length).toBe(3);
      expect((await run()).relations).toMatchObject({ created: 0, unchanged: 3 });
    } finally {
      await stores.close();
    }
  });
});
