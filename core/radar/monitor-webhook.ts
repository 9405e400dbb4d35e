import type { RadarDeps } from "./ports.ts";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type CollectionRecord, normalizeDedupKey } from "../collections/mod.ts";
import { emit } from "../events/mod.ts";
import { validationFailed } from "../kernel/errors.ts";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import {
  ANY_JSON_EVENT,
  deliverOnce,
  readSignedEvent,
  type SignedBy,
  type StandardWebhookHeaders,
  type WebhookHandler,
} from "../webhooks/mod.ts";
import { CRITERION_KINDS } from "./criterion-filter.ts";
import { agentChange } from "./record-change.ts";

/**
 * The radar monitor webhook (ADR 026): a data provider says entities it watches for a
 * monitor changed; the monitor's records of those entities are marked drifted. Standard Webhooks
 * signature over the raw body; the delivery goes through the webhook inbox (ADR 042): recorded
 * with its body, applied (marking is idempotent: a record drifted stays so), a redelivery does
 * nothing once applied.
 */

export const MONITOR_WEBHOOK_SOURCE = "radar-monitor";
const MAX_ENTITIES = 1_000;
const SIGNED_BY: SignedBy = { scheme: "standard-webhooks", setting: "RADAR_WEBHOOK_SECRET" };

const EntitiesChanged = Type.Object({
  type: Type.Literal("monitor.entities_changed"),
  data: Type.Object({
    monitor_id: Type.String({ minLength: 1, maxLength: 100 }),
    entities: Type.Array(
      Type.Object({
        kind: Type.Union(CRITERION_KINDS.map((k) => Type.Literal(k))),
        dedup_key: Type.String({ minLength: 1, maxLength: 500 }),
      }),
      { maxItems: MAX_ENTITIES },
    ),
  }),
});

export const MonitorWebhookResult = Type.Object({
  status: Type.Union([Type.Literal("applied"), Type.Literal("duplicate"), Type.Literal("ignored")], {
    description:
      "`applied`; `duplicate`: this webhook id was received before, nothing done again; `ignored`: another event type, or a monitor this service does not know.",
  }),
  drifted: Type.Integer({ minimum: 0, description: "Records marked drifted by this delivery." }),
});

export interface MonitorDelivery extends StandardWebhookHeaders {
  body: Uint8Array;
}

/** Marks the records drifted (one compare-and-set each; a record changed meanwhile is read again). */
async function markDrifted(deps: RadarDeps, records: CollectionRecord[]): Promise<number> {
  let marked = 0;
  for (const first of records) {
    for (let r: CollectionRecord | null = first, attempt = 0; r && !r.drifted && attempt < 3; attempt++) {
      const at = deps.clock.now().toISOString();
      const next = { ...r, drifted: true, version: r.version + 1, updated_at: at };
      const change = agentChange(r, next, null);
      const result = await deps.stores.records.update({ record: next, change });
      if (result === "ok") {
        marked++;
        break;
      }
      r = result === "not_found" ? null : await deps.stores.records.get(r.workspace_id, r.collection_id, r.id);
    }
  }
  return marked;
}

export async function receiveMonitorWebhook(
  deps: RadarDeps,
  secret: string,
  d: MonitorDelivery,
): Promise<{ status: "applied" | "duplicate" | "ignored"; drifted: number }> {
  // Any signed JSON: another event type is acknowledged and ignored before its shape is checked.
  const event = readSignedEvent(SIGNED_BY, secret, { ...d, receivedAt: deps.clock.now() }, ANY_JSON_EVENT);
  if (!event || typeof event !== "object" || (event as { type?: unknown }).type !== "monitor.entities_changed") {
    return { status: "ignored", drifted: 0 };
  }
  if (!Value.Check(EntitiesChanged, event)) {
    throw validationFailed(
      "Invalid monitor.entities_changed event",
      schemaErrorDetails(Value.Errors(EntitiesChanged, event), { limit: 1 }),
    );
  }
  const result = await deliverOnce(
    deps,
    MONITOR_WEBHOOK_SOURCE,
    d.id!,
    new TextDecoder().decode(d.body),
    (p) => applyEntitiesChanged(deps, p),
    (r) => r.status,
  );
  return result === "duplicate" ? { status: "duplicate", drifted: 0 } : result;
}

/** Applies a recorded `monitor.entities_changed` body (checked when it was received). */
async function applyEntitiesChanged(deps: RadarDeps, payload: string): Promise<{ status: "applied" | "ignored"; drifted: number }> {
  const event = JSON.parse(payload) as Static<typeof EntitiesChanged>;
  const monitor = await deps.stores.radarMonitors.monitorById(event.data.monitor_id);
  const search = monitor ? await deps.stores.radarRuns.getSearch(monitor.workspace_id, monitor.search_id) : null;
  if (!monitor || !search) return { status: "ignored", drifted: 0 };
  let drifted = 0;
  for (const kind of CRITERION_KINDS) {
    const keys = event.data.entities.filter((e) => e.kind === kind).map((e) => normalizeDedupKey(e.dedup_key));
    if (keys.length === 0) continue;
    const entities = await deps.stores.entities.byDedupKeys(monitor.workspace_id, kind, keys);
    if (entities.length === 0) continue;
    const records = await deps.stores.records.byEntities(monitor.workspace_id, search.collection_id, entities.map((e) => e.id));
    drifted += await markDrifted(deps, records);
  }
  await emit(deps, monitor.workspace_id, "radar.entities_changed", null, { monitor_id: monitor.id, drifted });
  return { status: "applied", drifted };
}

/** The recovery sweep's way in (ADR 042). */
export const monitorWebhookHandler: WebhookHandler<RadarDeps> = {
  source: MONITOR_WEBHOOK_SOURCE,
  apply: async (deps, payload) => (await applyEntitiesChanged(deps, payload)).status,
};
