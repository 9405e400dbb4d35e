import type { ArchiveKindIoTable } from "../kind-io.ts";
import { peopleKindIo } from "./people.ts";
import { radarKindIo } from "./radar.ts";
import { recordsKindIo } from "./records.ts";
import { topicsKindIo } from "./topics.ts";

/**
 * How every archive kind meets the stores: `workspace`, `members`, `areas`, `repos` (people.ts);
 * tags, topics, redirects, history, proposals, relations, share links (topics.ts); collections,
 * entities, records, their history and the credit ledger (records.ts); radar and contacts (radar.ts).
 */
export const ARCHIVE_KIND_IO: ArchiveKindIoTable = { ...peopleKindIo, ...topicsKindIo, ...recordsKindIo, ...radarKindIo };
