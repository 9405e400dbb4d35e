import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { PLANS } from "../workspaces/mod.ts";
import { ARCHIVE_CONSISTENCY, ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, ARCHIVE_KINDS, type ArchiveKind } from "./model.ts";
import { strictSchema } from "./strict-schema.ts";

/**
 * `manifest.json`, the archive's last entry: what it is, where from, what each kind holds, and
 * the SHA-256 of every other file. It comes last because the hashes are known only once every
 * file is written (the writer streams; it never holds the archive).
 */

const KindSummary = Type.Object({
  count: Type.Integer({ minimum: 0, description: "Lines of the kind." }),
  files: Type.Array(Type.String(), { description: "Its data parts, in order." }),
});
export type ArchiveKindSummary = Static<typeof KindSummary>;

const kindSummaries = Object.fromEntries(ARCHIVE_KINDS.map((k) => [k, KindSummary])) as Record<ArchiveKind, typeof KindSummary>;

export const ArchiveFileEntry = Type.Object({
  path: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the file's bytes, lowercase hex." }),
  lines: Type.Optional(Type.Integer({ minimum: 0, description: "Data parts: lines in the part." })),
});
export type ArchiveFileEntry = Static<typeof ArchiveFileEntry>;

export const ArchiveManifest = strictSchema(Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  format_version: Type.Literal(ARCHIVE_FORMAT_VERSION),
  service_version: Type.String({ minLength: 1 }),
  exported_at: Type.String({ format: "date-time" }),
  consistency: literalUnion(ARCHIVE_CONSISTENCY, {
    description: "`snapshot`: every kind as of one moment; `per_kind`: each kind as of its own moment (MongoDB).",
  }),
  workspace: Type.Object({ id: Type.String({ format: "uuid" }), slug: Type.String(), name: Type.String(), plan: literalUnion(PLANS) }),
  part_bytes: Type.Integer({ minimum: 1, description: "The most bytes the writer put in one data part." }),
  kinds: Type.Object(kindSummaries as unknown as Record<string, TSchema>),
  files: Type.Array(ArchiveFileEntry, { description: "Every file but the manifest, in archive order." }),
}));
export type ArchiveManifest = Omit<Static<typeof ArchiveManifest>, "kinds"> & { kinds: Record<ArchiveKind, ArchiveKindSummary> };
