/**
 * Values of rows as the stores read them: rows come back with Dates for timestamptz and objects
 * for jsonb; the models want ISO strings and typed unions (each module's mappers: <module>/rows.ts).
 */
export type Row = Record<string, unknown>;

/** A text or uuid column (both clients return strings). */
export const str = (v: unknown): string => v as string;
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));
/** A jsonb parameter (`$n::text::jsonb`): serialised here, so both clients pass it alike; null stays SQL null. */
export const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
