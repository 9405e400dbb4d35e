import { assertCanWrite, type Principal } from "../access/mod.ts";
import type { CollectionDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { notFound, validationFailed } from "../kernel/errors.ts";
import { isUuid, uuidv7 } from "../kernel/ids.ts";
import { parseBoundedInt } from "../kernel/paging.ts";
import type { QueryInt } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { EntityView, UpsertEntityDto } from "./dto.ts";
import { normalizeDedupKey, normalizeKind } from "./entity-key.ts";
import type { Entity } from "./model.ts";
import { toEntityView } from "./views.ts";

export const ENTITIES_LIMIT = { default: 50, max: 200 } as const;
const MAX_ATTRIBUTES_BYTES = 64 * 1024;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The next state of `e` after an upsert of `dto`: attributes merged (null removes), name replaced. Null when nothing changes. */
export function mergeEntity(e: Entity, dto: UpsertEntityDto, at: string): { next: Entity; changed: string[] } | null {
  const attributes = { ...e.attributes };
  const changed: string[] = [];
  for (const [k, v] of Object.entries(dto.attributes ?? {})) {
    if (v === null) {
      if (k in attributes) {
        delete attributes[k];
        changed.push(k);
      }
    } else if (!same(attributes[k], v)) {
      attributes[k] = v;
      changed.push(k);
    }
  }
  const nameChanged = dto.name !== e.name;
  if (!changed.length && !nameChanged) return null;
  return { next: { ...e, name: dto.name, attributes, version: e.version + 1, updated_at: at }, changed: changed.sort() };
}

export interface UpsertResult {
  entity: EntityView;
  result: "created" | "updated" | "unchanged";
  /** Attribute names whose value changed (all given ones on create). */
  changed_attributes: string[];
  name_changed: boolean;
}

/** Idempotent on (kind, dedup_key): the same call twice creates once and then reports `unchanged`. */
export async function upsertEntity(deps: CollectionDeps, p: Principal, ws: Workspace, dto: UpsertEntityDto): Promise<UpsertResult> {
  assertCanWrite(p, "write an entity");
  const attrs = Object.fromEntries(Object.entries(dto.attributes ?? {}).filter(([, v]) => v !== null));
  if (new TextEncoder().encode(JSON.stringify(attrs)).length > MAX_ATTRIBUTES_BYTES) {
    throw validationFailed("Invalid entity", [{ path: "/attributes", message: `is larger than ${MAX_ATTRIBUTES_BYTES} bytes` }]);
  }
  const now = deps.clock.now();
  const at = now.toISOString();
  const fresh: Entity = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    kind: normalizeKind(dto.kind),
    name: dto.name,
    dedup_key: dto.dedup_key ?? null,
    dedup_norm: dto.dedup_key === undefined ? null : normalizeDedupKey(dto.dedup_key),
    attributes: attrs,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  let changed: string[] = [];
  const out = await deps.stores.entities.upsert(fresh, (existing) => {
    const m = mergeEntity(existing, dto, at);
    changed = m?.changed ?? [];
    return m?.next ?? null;
  });
  if (out.created) {
    await emit(deps, ws.id, "entity.created", p, { entity_id: out.entity.id });
    return { entity: toEntityView(out.entity), result: "created", changed_attributes: Object.keys(attrs).sort(), name_changed: false };
  }
  const updated = out.entity.version !== out.previous?.version;
  if (updated) await emit(deps, ws.id, "entity.updated", p, { entity_id: out.entity.id, version: out.entity.version });
  return {
    entity: toEntityView(out.entity),
    result: updated ? "updated" : "unchanged",
    changed_attributes: updated ? changed : [],
    name_changed: updated && out.previous?.name !== out.entity.name,
  };
}

export async function getEntity(deps: CollectionDeps, ws: Workspace, id: string): Promise<EntityView> {
  const e = await deps.stores.entities.get(ws.id, id);
  if (!e) throw notFound("Entity");
  return toEntityView(e);
}

export async function listEntities(deps: CollectionDeps, ws: Workspace, q: { kind?: string; limit?: QueryInt; cursor?: string }) {
  const limit = parseBoundedInt("limit", q.limit, 1, ENTITIES_LIMIT.max) ?? ENTITIES_LIMIT.default;
  if (q.cursor !== undefined && !isUuid(q.cursor)) {
    throw validationFailed("Invalid cursor: expected the id of the last entity of the previous page", [{
      path: "query.cursor",
      message: "expected an entity id",
    }]);
  }
  const { items, has_more } = await deps.stores.entities.list(ws.id, q.kind === undefined ? null : normalizeKind(q.kind), {
    limit,
    ...(q.cursor ? { afterId: q.cursor } : {}),
  });
  return { items: items.map(toEntityView), has_more };
}
