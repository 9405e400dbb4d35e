import { sha256 } from "@oslojs/crypto/sha2";
import type { ArchiveKind } from "./model.ts";

const encoder = new TextEncoder();
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The id an import gives an object whose archive id it does not keep (ADR 068, rule 3): a UUIDv7
 * with the archive id's 48-bit time (lists ordered by id keep their order) and the rest from
 * SHA-256(target workspace, kind, archive id). Derived, not drawn: an import run again after an
 * interruption finds the object it wrote under this id (rule 1) instead of writing it twice.
 */
export function importedId(targetWorkspaceId: string, kind: ArchiveKind, archiveId: string): string {
  const digest = hex(sha256(encoder.encode(`${targetWorkspaceId}\n${kind}\n${archiveId}`)));
  const time = archiveId.replaceAll("-", "").slice(0, 12);
  const ms = /^[0-9a-f]{12}$/.test(time) ? time : digest.slice(20, 32);
  const variant = ((parseInt(digest[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${digest.slice(0, 3)}-${variant}${digest.slice(4, 7)}-${digest.slice(7, 19)}`;
}
