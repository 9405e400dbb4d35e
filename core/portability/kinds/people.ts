import type { ArchiveKindIoTable } from "../kind-io.ts";

/** The archive kinds of this group's modules (ADR 067). */
export const peopleKindIo: ArchiveKindIoTable = {};
