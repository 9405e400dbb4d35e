import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { RepoIndex } from "../../core/code-context/ports.ts";
import type { Repo } from "../../core/workspaces/model.ts";
import { bundle, stamp, unique } from "./fixtures.ts";

/**
 * The contract of the code-context store ports (docs/decisions/010-code-context.md): repo file
 * indexes and repos by full name across workspaces (webhook deliveries: webhook-stores.contract.ts).
 * Every adapter runs it.
 */
export function runCodeIndexStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: code index stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    async function workspaceWithRepo(fullName = unique("acme/api")): Promise<{ workspaceId: string; repo: Repo }> {
      const b = bundle();
      expect(await s.workspaces.bootstrap(b)).toBe("ok");
      const repo: Repo = {
        id: uuidv7(),
        workspace_id: b.workspace.id,
        provider: "github",
        full_name: fullName,
        default_branch: "main",
        clone_url: null,
        created_at: stamp(),
      };
      expect(await s.repos.insert(repo)).toBe("ok");
      return { workspaceId: b.workspace.id, repo };
    }

    const indexOf = (repo: Repo, files: string[], commit = "a".repeat(40)): RepoIndex => ({
      workspace_id: repo.workspace_id,
      repo_id: repo.id,
      commit,
      files,
      refreshed_at: stamp(),
    });

    test("RepoIndexStore.put() stores a repo's file list; get() and head() read it back", async () => {
      const { workspaceId, repo } = await workspaceWithRepo();
      expect(await s.repoIndex.get(workspaceId, repo.id)).toBeNull();
      expect(await s.repoIndex.head(workspaceId, repo.id)).toBeNull();
      const index = indexOf(repo, ["README.md", "src/a b.ts", "src/é.ts"]);
      expect(await s.repoIndex.put(index)).toBe(true);
      expect(await s.repoIndex.get(workspaceId, repo.id)).toEqual(index);
      expect(await s.repoIndex.head(workspaceId, repo.id)).toEqual({
        workspace_id: workspaceId,
        repo_id: repo.id,
        commit: index.commit,
        refreshed_at: index.refreshed_at,
        file_count: 3,
      });
    });

    test("RepoIndexStore.put() replaces the whole index", async () => {
      const { workspaceId, repo } = await workspaceWithRepo();
      await s.repoIndex.put(indexOf(repo, ["a.ts", "b.ts"]));
      const next = indexOf(repo, ["c.ts"], "b".repeat(40));
      expect(await s.repoIndex.put(next)).toBe(true);
      expect(await s.repoIndex.get(workspaceId, repo.id)).toEqual(next);
      expect((await s.repoIndex.head(workspaceId, repo.id))?.file_count).toBe(1);
      const empty = indexOf(repo, [], "c".repeat(40));
      expect(await s.repoIndex.put(empty)).toBe(true);
      expect(await s.repoIndex.get(workspaceId, repo.id)).toEqual(empty);
    });

    test("RepoIndexStore holds a repo of 50,000 paths as one value", async () => {
      const { workspaceId, repo } = await workspaceWithRepo();
      const files = Array.from(
        { length: 50_000 },
        (_, i) => `packages/p${Math.floor(i / 1000)}/src/module-${String(i).padStart(5, "0")}.ts`,
      ).sort();
      expect(await s.repoIndex.put(indexOf(repo, files))).toBe(true);
      expect((await s.repoIndex.head(workspaceId, repo.id))?.file_count).toBe(50_000);
      const back = await s.repoIndex.get(workspaceId, repo.id);
      expect(back?.files.length).toBe(50_000);
      expect(back?.files[0]).toBe(files[0]);
      expect(back?.files[49_999]).toBe(files[49_999]);
    });

    test("RepoIndexStore.put() refuses a repo that does not exist in the workspace, and reads are tenant-scoped", async () => {
      const { workspaceId, repo } = await workspaceWithRepo();
      const other = await workspaceWithRepo();
      expect(await s.repoIndex.put({ ...indexOf(repo, ["x"]), repo_id: uuidv7() })).toBe(false);
      expect(await s.repoIndex.put({ ...indexOf(repo, ["x"]), workspace_id: other.workspaceId })).toBe(false);
      expect(await s.repoIndex.get(other.workspaceId, repo.id)).toBeNull();
      await s.repoIndex.put(indexOf(repo, ["x"]));
      expect(await s.repoIndex.get(other.workspaceId, repo.id)).toBeNull();
      expect(await s.repoIndex.head(other.workspaceId, repo.id)).toBeNull();
      expect(await s.repoIndex.get(workspaceId, "not-a-uuid")).toBeNull();
    });

    test("RepoIndexStore: the index goes with its repo, and with its workspace", async () => {
      const a = await workspaceWithRepo();
      await s.repoIndex.put(indexOf(a.repo, ["x"]));
      expect(await s.repos.delete(a.workspaceId, a.repo.id)).toBe(true);
      expect(await s.repoIndex.get(a.workspaceId, a.repo.id)).toBeNull();
      expect(await s.repoIndex.put(indexOf(a.repo, ["y"]))).toBe(false);
      const b = await workspaceWithRepo();
      await s.repoIndex.put(indexOf(b.repo, ["x"]));
      expect(await s.workspaces.delete(b.workspaceId)).toBe(true);
      expect(await s.repoIndex.get(b.workspaceId, b.repo.id)).toBeNull();
      expect(await s.repoIndex.head(b.workspaceId, b.repo.id)).toBeNull();
    });

    test("RepoStore.findByFullName() finds the repos of every workspace with that name, oldest first, at most limit", async () => {
      const fullName = unique("org/shared");
      const first = await workspaceWithRepo(fullName);
      const second = await workspaceWithRepo(fullName);
      await workspaceWithRepo(unique("org/other"));
      expect((await s.repos.findByFullName(fullName, 10)).map((r) => r.id)).toEqual([first.repo.id, second.repo.id]);
      expect(await s.repos.findByFullName(fullName, 1)).toEqual([first.repo]);
      expect(await s.repos.findByFullName(unique("org/none"), 10)).toEqual([]);
    });
  });
}
