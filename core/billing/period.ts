/**
 * Billing periods (ADR 031, 043): the subscription's or contract's when there is one, else the
 * calendar month (UTC) holding the instant. Pure.
 */
export interface Period {
  start: string;
  end: string;
}

/** The calendar month (UTC) holding `at`: [first instant, first instant of the next month). */
export function calendarMonth(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

/** The period in force at `at`: the provider's current period when it holds `at`, else the calendar month. */
export function periodAt(at: Date, current: Period | null = null): Period {
  if (current && Date.parse(current.start) <= at.getTime() && at.getTime() < Date.parse(current.end)) return current;
  return calendarMonth(at);
}

/** The ledger idempotency key of a period's included credits: one grant per workspace and period. */
export const includedCreditsKey = (period: Period): string => `plan.included:${period.start}`;

/** `at` plus `months` calendar months (UTC; a day past the target month's end clamps to its last day). */
export function addMonths(at: string, months: number): string {
  const d = new Date(at);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ),
  );
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target.toISOString();
}

/** A contract's monthly period holding `now`: months counted from its `started_at` (offers keep contracts). */
export function contractPeriod(c: { started_at: string }, now: Date): { start: string; end: string } {
  const s = new Date(c.started_at);
  let months = (now.getUTCFullYear() - s.getUTCFullYear()) * 12 + (now.getUTCMonth() - s.getUTCMonth());
  if (months < 0) months = 0;
  let start = addMonths(c.started_at, months);
  if (Date.parse(start) > now.getTime() && months > 0) start = addMonths(c.started_at, --months);
  return { start, end: addMonths(c.started_at, months + 1) };
}
