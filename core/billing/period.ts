/**
 * Billing periods (issue #15): the subscription's or contract's when there is one, else the
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
