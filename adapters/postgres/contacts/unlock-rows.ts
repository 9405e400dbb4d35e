import type { ContactUnlock } from "../../../core/contacts/model.ts";
import { iso, isoOrNull } from "../driver.ts";
import type { Row } from "../row-values.ts";

/** `radar_contact_unlocks` (migration 011): a claim, then its settled value. */
export const UNLOCK_COLUMNS = "workspace_id, entity_id, kind, state, value, credits, token, claimed_at, settled_at";
export const toUnlock = (r: Row): ContactUnlock => ({
  workspace_id: r.workspace_id as string,
  entity_id: r.entity_id as string,
  kind: r.kind as ContactUnlock["kind"],
  state: r.state as ContactUnlock["state"],
  value: (r.value as string | null) ?? null,
  credits: Number(r.credits),
  token: r.token as string,
  claimed_at: iso(r.claimed_at),
  settled_at: isoOrNull(r.settled_at),
});
