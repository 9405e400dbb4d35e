import {
  admitsField,
  type Collection,
  type CollectionRecord,
  recordSearchText,
  type RecordWrite,
  validateRecordFields,
} from "../collections/mod.ts";
import { agentChange } from "../radar/mod.ts";
import type { UnlockRecordWrite } from "./ports.ts";

/**
 * The record side of a contact unlock (ADR 056): every record of the request whose person has a
 * path unlocked shows its value, whichever record paid for it and whenever.
 */

/** Contact values by record field (`email`, `phone`, `linkedin_url`). */
export type ContactValues = Partial<Record<string, string>>;

/**
 * The write that shows `values` on `cur`, recorded in its history like any write radar makes on
 * its own (an agent's change, one version up); null when there is nothing to write. A field the
 * collection's schema does not admit, or whose declared type refuses the value, is left out (the
 * value stays on the entity); the record's other fields are kept as they are.
 */
export function contactRecordWrite(c: Collection, cur: CollectionRecord, values: ContactValues, at: string): RecordWrite | null {
  const wanted = Object.entries(values).filter(([name, v]) =>
    v !== undefined && cur.fields[name] !== v && admitsField(c.record_schema, name)
  );
  if (wanted.length === 0) return null;
  const checked = validateRecordFields(c.record_schema, { ...cur.fields, ...Object.fromEntries(wanted) });
  // A record grown past its size limit takes none of them.
  if (checked.errors.some((e) => e.path === "/fields")) return null;
  const refused = new Set(checked.errors.map((e) => e.path));
  const kept = wanted.filter(([name]) => !refused.has(`/fields/${name}`) && checked.fields[name] !== undefined);
  if (kept.length === 0) return null;
  const fields = { ...cur.fields, ...Object.fromEntries(kept.map(([name]) => [name, checked.fields[name]!])) };
  const record = { ...cur, fields, search_text: recordSearchText(fields), version: cur.version + 1, updated_at: at };
  return { record, change: agentChange(cur, record, null) };
}

/** Whether an unlock's record write applies: every key it needs (at least one) settled `unlocked` in the same call. */
export const recordWriteReady = (w: UnlockRecordWrite, unlocked: ReadonlySet<string>): boolean =>
  w.needs.length > 0 && w.needs.every((k) => unlocked.has(k));
