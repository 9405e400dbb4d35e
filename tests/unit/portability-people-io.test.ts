import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { ARCHIVE_KIND_IO } from "../../core/portability/kinds/mod.ts";
import type { ArchiveKindIo } from "../../core/portability/kind-io.ts";
import type { ArchiveKind } from "../../core/portability/model.ts";
import type { ArchiveLine } from "../../core/portability/lines.ts";
import type { Stores } from "../../core/stores.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { bundle, identity, newMember, stamp } from "../contract/fixtures.ts";

async function collect<K extends ArchiveKind>(kind: K, stores: Stores, workspaceId: string): Promise<ArchiveLine<K>[]> {
  const io = ARCHIVE_KIND_IO[kind] as ArchiveKindIo<K>;
  const out: ArchiveLine<K>[] = [];
  for await (const l of io.lines(stores, workspaceId)) out.push(l);
  return out;
}

/** Writes a kind's lines into `to`'s workspace through toDocs and the transfer kinds they name. */
async function replay<K extends ArchiveKind>(kind: K, lines: ArchiveLine<K>[], to: Stores, workspaceId: string): Promise<void> {
  const io = ARCHIVE_KIND_IO[kind] as ArchiveKindIo<K>;
  for (const l of lines) {
    for (const d of io.toDocs(l, { workspaceId, now: "2026-11-29T00:00:00.000Z" })) {
      await to.transfer.kinds.find((k) => k.name === d.kind)!.write([d.doc]);
    }
  }
}

describe("archive kinds of the workspaces module (kinds/people.ts)", () => {
  test("workspace, members, areas and repos read as lines and come back as the same lines in another workspace", async () => {
    const source = createMemoryStores();
    const b = bundle();
    expect(await source.workspaces.bootstrap(b)).toBe("ok");
    const ws = b.workspace.id;
    await source.members.add({ ...identity(), name: null }, newMember(ws, "admin"));
    await source.areas.insert({
      id: uuidv7(),
      workspace_id: ws,
      name: "Zoë's area",
      description: null,
      created_at: stamp(),
      updated_at: stamp(),
    });
    await source.repos.insert({
      id: uuidv7(),
      workspace_id: ws,
      provider: "git",
      full_name: "acme/api",
      default_branch: "main",
      clone_url: "https://bot:t0ken@git.example.com/acme/api.git",
      created_at: stamp(),
    });

    const [workspace, members, areas, repos] = await Promise.all([
      collect("workspace", source, ws),
      collect("members", source, ws),
      collect("areas", source, ws),
      collect("repos", source, ws),
    ]);
    expect(workspace).toEqual([{ ...b.workspace }]);
    expect(members.map((m) => [m.email, m.role])).toEqual([[b.owner.identity.email, "owner"], [members[1]!.email, "admin"]]);
    expect(members[1]!.name).toBeNull();
    expect(areas.map((a) => a.name)).toEqual(["Zoë's area"]);
    // The repo's clone URL leaves without its credentials.
    expect(repos[0]!.clone_url).toBe("https://git.example.com/acme/api.git");

    const target = createMemoryStores();
    const other = bundle();
    expect(await target.workspaces.bootstrap(other)).toBe("ok");
    // The target's owner is a person of its own; the archive's members are written beside it.
    await replay("workspace", workspace, target, other.workspace.id);
    await replay("members", members, target, other.workspace.id);
    await replay("areas", areas, target, other.workspace.id);
    await replay("repos", repos, target, other.workspace.id);

    expect(await collect("workspace", target, other.workspace.id)).toEqual([{ ...other.workspace }]);
    const back = await collect("members", target, other.workspace.id);
    expect(back.filter((m) => m.id !== other.member.id)).toEqual(members);
    expect(await collect("areas", target, other.workspace.id)).toEqual(areas);
    expect(await collect("repos", target, other.workspace.id)).toEqual(repos);
    // The written people answer by e-mail on the target.
    for (const m of members) expect((await target.identities.getByEmail(m.email))?.id).toBe(m.identity_id);
  });
});
