import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { jobKind, jobOf } from "../../core/jobs/kind.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { repoIndexJob } from "../../core/code-context/repo-index-job.ts";
import { handles } from "../../workers/handler.ts";
import { HANDLERS, jobRunner } from "../../workers/registry.ts";

const echo = jobKind({
  name: "test.echo",
  payload: Type.Object({ text: Type.String() }, { additionalProperties: false }),
  dedupKey: (p) => p.text,
});

describe("jobOf()", () => {
  test("jobOf() keys a job by kind, workspace and the kind's dedup key", () => {
    expect(jobOf(repoIndexJob, "w1", { repo_id: "r1" })).toEqual({
      kind: "repo.index",
      workspace_id: "w1",
      payload: { repo_id: "r1" },
      key: "repo.index:w1:r1",
    });
    expect(jobOf(echo, "w2", { text: "hi" }).key).toBe("test.echo:w2:hi");
  });

  test("jobOf() refuses a payload outside the kind's schema, naming the field", () => {
    expect(() => jobOf(repoIndexJob, "w1", { repo_id: "" })).toThrow(/payload of job repo.index/);
    try {
      jobOf(repoIndexJob, "w1", { repoId: "r1" } as never);
      throw new Error("not refused");
    } catch (e) {
      expect(e).toMatchObject({ code: "VALIDATION_FAILED" });
      expect(JSON.stringify((e as { details: unknown }).details)).toContain("repo_id");
    }
  });
});

describe("jobRunner()", () => {
  const deps = async (): Promise<ComposedDeps> => ({
    stores: createMemoryStores(),
    clock: systemClock,
    secretBox: await createSecretBox("jobs-secret-jobs-secret-jobs-secret-0"),
  });

  test("jobRunner() hands a job to its kind's handler, typed by the kind", async () => {
    const d = await deps();
    const seen: string[] = [];
    const run = jobRunner(() => d, [
      handles(echo, async (got, job) => void seen.push(`${job.workspace_id} ${job.payload.text} ${got === d}`)),
    ]);
    await run(jobOf(echo, "w1", { text: "hello" }));
    expect(seen).toEqual(["w1 hello true"]);
  });

  test("jobRunner() fails a job of an unknown kind, or whose payload no longer fits its kind", async () => {
    const d = await deps();
    const run = jobRunner(() => d, [handles(echo, async () => {})]);
    await expect(run({ kind: "test.gone", workspace_id: "w1", payload: {}, key: "test.gone:w1:" })).rejects.toThrow(
      "No handler for job kind test.gone",
    );
    await expect(run({ kind: "test.echo", workspace_id: "w1", payload: { text: 1 }, key: "k" })).rejects.toThrow(
      "its payload does not fit kind test.echo",
    );
  });

  test("jobRunner() refuses two handlers for one kind", () => {
    expect(() => jobRunner(() => ({}) as ComposedDeps, [handles(echo, async () => {}), handles(echo, async () => {})])).toThrow(
      /Two handlers for job kind test.echo/,
    );
  });

  test("the registry has a handler per kind (repo.index, radar.run, radar.monitor, mail.send, billing.included_credits, billing.offer_effects); repo.index skips a repo deleted since it was queued", async () => {
    expect(HANDLERS.map((h) => h.kind.name)).toEqual([
      "repo.index",
      "radar.run",
      "radar.monitor",
      "mail.send",
      "billing.included_credits",
      "billing.offer_effects",
    ]);
    const d = await deps();
    await jobRunner(() => d)(jobOf(repoIndexJob, "w1", { repo_id: "01939a3e-0000-7000-8000-000000000000" }));
    expect(await d.stores.repoIndex.head("w1", "01939a3e-0000-7000-8000-000000000000")).toBeNull();
  });
});
