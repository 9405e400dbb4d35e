/**
 * A hold's resolution captures at most what it held (docs/decisions/041-unlock-in-two-writes.md).
 * Radar's unlock settles its claims and captures their credits in one statement, the capture
 * summed from the rows it settles; this check (with the account's) refuses that whole statement,
 * settles included, should it ever capture more than the hold. Every resolution written so far
 * satisfies it (the ledger's append plans the same rule in core/credits/ledger-rules.ts).
 */
export default {
  version: 24,
  name: "resolution-within-hold",
  sql: /* sql */ `
alter table credit_entries add constraint credit_entries_resolution_within_hold
  check (hold_id is null or (held < 0 and amount <= 0 and amount >= held));
`,
};
