import type { RepoIndex } from "../../../core/code-context/ports.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import type { Topic } from "../../../core/topics/model.ts";
import { topicEvent } from "../../../core/topics/topic-change.ts";
import type { BootstrapBundle, Repo } from "../../../core/workspaces/mod.ts";
import { stamp, topicFixture, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

interface Seeded {
  repo: Repo;
  index: RepoIndex;
  anchored: Topic;
  session: string;
  at: string;
}

const seeded = new Map<string, Seeded>();
const NEVER_STALE = "2000-01-01T00:00:00.000Z";

/**
 * Code context: a repo's file index (Unicode paths, an empty repo's none), a topic anchored in
 * it, and a retrieval session's deliveries. The copy must serve the same index, the same anchor
 * index and match-files heads (derived from the topics), and remember what the session was given.
 */
export const codeContextSeeder: TransferSeeder = {
  module: "code-context",
  async seed(s: Stores, b: BootstrapBundle) {
    const ws = b.workspace.id;
    const repo: Repo = {
      id: uuidv7(),
      workspace_id: ws,
      provider: "github",
      full_name: `acme/${unique("repo")}`,
      default_branch: "main",
      clone_url: null,
      created_at: stamp(),
    };
    if ((await s.repos.insert(repo)) !== "ok") throw new Error("seed: repo refused");
    const index: RepoIndex = {
      workspace_id: ws,
      repo_id: repo.id,
      commit: "c".repeat(40),
      files: ["README.md", "docs/ünï code.md", "src/a.ts", "src/b/c.ts"],
      refreshed_at: stamp(),
    };
    if (!(await s.repoIndex.put(index))) throw new Error("seed: index refused");
    const anchored = topicFixture(ws, { title: "Anchored", repo_id: repo.id, anchors: ["src/**/*.ts", "docs/*.md"] });
    if (
      (await s.topics.insert({ topic: anchored, event: topicEvent(null, anchored, "topic.created", new Date(anchored.updated_at)) })) !==
        "ok"
    ) {
      throw new Error("seed: anchored topic refused");
    }
    const session = `sess-${unique("r")}`;
    const at = stamp();
    await s.retrievals.record(ws, session, [{ topic_id: anchored.id, version: 1 }, { topic_id: uuidv7(), version: 7 }], at, NEVER_STALE);
    seeded.set(ws, { repo, index, anchored, session, at });
  },
  async verify(source, target, b, expect) {
    const ws = b.workspace.id;
    const x = seeded.get(ws)!;
    expect(await target.repoIndex.get(ws, x.repo.id)).toEqual(x.index);
    expect(await target.repoIndex.head(ws, x.repo.id)).toEqual(await source.repoIndex.head(ws, x.repo.id));
    const anchors = async (s: Stores) => (await s.anchorIndex.load(ws))?.topics.sort((a, c) => (a.id < c.id ? -1 : 1)) ?? null;
    expect(await anchors(target)).toEqual(await anchors(source));
    // A store that keeps no anchor version (MongoDB) has no anchor index to load: match-files asks anchoredAt.
    const loaded = await target.anchorIndex.load(ws);
    if (loaded) expect(loaded.topics.map((t) => t.id)).toContain(x.anchored.id);
    const anchoredAt = async (s: Stores) => (await s.topics.anchoredAt(ws, x.repo.id, ["src"], 10)).map((t) => t.id);
    expect(await anchoredAt(target)).toEqual([x.anchored.id]);
    expect(await anchoredAt(target)).toEqual(await anchoredAt(source));
    const heads = async (s: Stores) => (await s.anchorIndex.heads(ws, [x.anchored.id], NEVER_STALE)).topics;
    expect(await heads(target)).toEqual(await heads(source));
    expect((await target.topicHeads.heads(ws, [x.anchored.id])).heads).toEqual((await source.topicHeads.heads(ws, [x.anchored.id])).heads);
    // Where the store keeps anchor and topic versions (PostgreSQL), the copy's topics moved them.
    if (await source.topicHeads.versions(ws)) expect(await target.topicHeads.versions(ws)).not.toBeNull();
    if (loaded) expect(loaded.version).not.toBe("0");
    const delivered = (s: Stores) => s.retrievals.delivered(ws, x.session, [x.anchored.id], x.at);
    expect(await delivered(target)).toEqual(new Map([[x.anchored.id, 1]]));
    expect(await delivered(target)).toEqual(await delivered(source));
  },
};
