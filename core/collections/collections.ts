import { actorKind, assertCanWrite, type Principal } from "../access/mod.ts";
import { releaseCapacity, withCapacity } from "../kernel/capacity.ts";
import type { CollectionDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { notFound, validationFailed, versionConflict } from "../kernel/errors.ts";
import { isUuid, uuidv7 } from "../kernel/ids.ts";
import { parseBoundedInt } from "../kernel/paging.ts";
import { badQuery, parseBool, parseEnum, parseTimestamp, type QueryBool, type QueryInt } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { COLLECTION_STATUSES, type CollectionStatus } from "./archetype.ts";
import { assertCollectionValid } from "./collection-rules.ts";
import {
  COLLECTION_VIEWS,
  type CollectionView,
  type ConnectorMappingView,
  type CreateCollectionDto,
  type FullCollectionView,
  type PresentationView,
  type SetConnectorMappingDto,
  type SetPresentationDto,
  type UpdateCollectionDto,
} from "./dto.ts";
import type { Collection } from "./model.ts";
import type { CollectionFilter, PurgePlan } from "./ports.ts";
import { assertCanPurgeCollection } from "./policy.ts";
import { recordSchemaOf } from "./record-schema.ts";
import { queryWords } from "./record-text.ts";
import { toCollectionView, toConnectorMappingView, toPresentationView } from "./views.ts";

export const COLLECTIONS_LIMIT = { default: 50, max: 200 } as const;

export const collectionNotFound = () => notFound("Collection");

export async function findCollection(deps: CollectionDeps, ws: Workspace, id: string): Promise<Collection> {
  const c = await deps.stores.collections.get(ws.id, id);
  if (!c) throw collectionNotFound();
  return c;
}

async function assertMember(deps: CollectionDeps, ws: Workspace, identityId: string): Promise<void> {
  if (!(await deps.stores.members.findByIdentity(ws.id, identityId))) {
    throw validationFailed("Invalid owner_identity_id: not a member of this workspace", [{
      path: "/owner_identity_id",
      message: "is not a member of this workspace",
    }]);
  }
}

/** A collection in the view asked for (`full` by default, or `summary`). */
export async function getCollection(deps: CollectionDeps, ws: Workspace, id: string, q: { view?: string } = {}): Promise<CollectionView> {
  return toCollectionView(await findCollection(deps, ws, id), parseEnum("view", q.view, COLLECTION_VIEWS) ?? "full");
}

export async function getConnectorMapping(deps: CollectionDeps, ws: Workspace, id: string): Promise<ConnectorMappingView> {
  return toConnectorMappingView(await findCollection(deps, ws, id));
}

export async function getPresentation(deps: CollectionDeps, ws: Workspace, id: string): Promise<PresentationView> {
  return toPresentationView(await findCollection(deps, ws, id));
}

export async function createCollection(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  dto: CreateCollectionDto,
): Promise<FullCollectionView> {
  assertCanWrite(p, "create a collection");
  const now = deps.clock.now();
  const at = now.toISOString();
  const c: Collection = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    name: dto.name,
    archetype: dto.archetype,
    status: "active",
    record_schema: recordSchemaOf(dto.archetype, dto.record_schema),
    views: dto.views ?? [],
    criterion_rel_slugs: dto.criterion_rel_slugs ?? [],
    distill_policy: dto.distill_policy ?? null,
    connector_mapping: null,
    presentation: null,
    owner_identity_id: dto.owner_identity_id ?? p.identityId,
    created_by: p.identityId,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  assertCollectionValid(c, "collection");
  if (dto.owner_identity_id && dto.owner_identity_id !== p.identityId) await assertMember(deps, ws, dto.owner_identity_id);
  await withCapacity(deps.capacity, ws, "collections", () => deps.stores.collections.insert(c));
  await emit(deps, ws.id, "collection.created", p, { collection_id: c.id, version: 1 });
  return toCollectionView(c);
}

export interface CollectionListQuery {
  status?: string;
  owner?: string;
  updated_after?: string;
  limit?: QueryInt;
  cursor?: string;
}

export interface CollectionSearchQuery extends CollectionListQuery {
  q?: string;
  include_archived?: QueryBool;
}

const parseStatus = (raw: string | undefined) => parseEnum("status", raw, COLLECTION_STATUSES);

function parseCommon(q: CollectionListQuery) {
  const limit = parseBoundedInt("limit", q.limit, 1, COLLECTIONS_LIMIT.max) ?? COLLECTIONS_LIMIT.default;
  if (q.cursor !== undefined && !isUuid(q.cursor)) throw badQuery("cursor", "expected the id of the last collection of the previous page");
  if (q.owner !== undefined && !isUuid(q.owner)) throw badQuery("owner", "expected an identity id");
  const updatedAfter = parseTimestamp("updated_after", q.updated_after);
  return { page: { limit, ...(q.cursor ? { afterId: q.cursor } : {}) }, ownerId: q.owner, updatedAfter };
}

function filterOf(statuses: CollectionStatus[], c: ReturnType<typeof parseCommon>, nameWords?: string[]): CollectionFilter {
  return {
    statuses,
    ...(c.ownerId ? { ownerId: c.ownerId } : {}),
    ...(c.updatedAfter ? { updatedAfter: c.updatedAfter } : {}),
    ...(nameWords?.length ? { nameWords } : {}),
  };
}

/** Newest first; `status` defaults to active. Paged by `cursor` = the id of the last collection seen. */
export async function listCollections(deps: CollectionDeps, ws: Workspace, q: CollectionListQuery) {
  const common = parseCommon(q);
  const status = parseStatus(q.status) ?? "active";
  const { items, has_more } = await deps.stores.collections.list(ws.id, filterOf([status], common), common.page);
  return { items: items.map((c) => toCollectionView(c)), has_more };
}

/** Collections whose name holds every word of `q`, in the summary view; archived ones only with `include_archived=true` or `status=archived`. */
export async function searchCollections(deps: CollectionDeps, ws: Workspace, q: CollectionSearchQuery) {
  const common = parseCommon(q);
  if (q.q !== undefined && q.q.length > 200) throw badQuery("q", "at most 200 characters");
  const include = parseBool("include_archived", q.include_archived) ?? false;
  const status = parseStatus(q.status);
  const statuses: CollectionStatus[] = status ? [status] : include ? ["active", "archived"] : ["active"];
  const { items, has_more } = await deps.stores.collections.list(ws.id, filterOf(statuses, common, queryWords(q.q ?? "")), common.page);
  return { items: items.map((c) => toCollectionView(c, "summary")), has_more };
}

/** Applies `change` to the collection at the expected version: one write, checked by the store. */
async function changeCollection(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  expected: number | undefined,
  change: (c: Collection) => Partial<Collection> | null,
  event: string,
): Promise<Collection> {
  assertCanWrite(p, "change a collection");
  const cur = await findCollection(deps, ws, id);
  if (expected !== undefined && expected !== cur.version) throw versionConflict("collection", cur.version);
  const patch = change(cur);
  // Nothing to change: no new version, no event.
  if (patch === null) return cur;
  const next: Collection = { ...cur, ...patch, version: cur.version + 1, updated_at: deps.clock.now().toISOString() };
  assertCollectionValid(next, "collection");
  const result = await deps.stores.collections.update(next);
  if (result === "not_found") throw collectionNotFound();
  if (result === "version_conflict") {
    const now = await deps.stores.collections.get(ws.id, id);
    if (!now) throw collectionNotFound();
    throw versionConflict("collection", now.version);
  }
  await emit(deps, ws.id, event, p, { collection_id: id, version: next.version });
  return next;
}

export async function updateCollection(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  dto: UpdateCollectionDto,
  expected: number | undefined,
): Promise<FullCollectionView> {
  const { expected_version: _v, record_schema, ...rest } = dto;
  const next = await changeCollection(deps, p, ws, id, expected, (c) => ({
    ...rest,
    ...(record_schema ? { record_schema: recordSchemaOf(c.archetype, record_schema) } : {}),
    ...(dto.distill_policy !== undefined ? { distill_policy: dto.distill_policy } : {}),
  }), dto.status === "archived" ? "collection.archived" : "collection.updated");
  return toCollectionView(next);
}

/** Archive and restore are idempotent on the state: archiving an archived collection changes nothing. */
export async function setCollectionStatus(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  status: CollectionStatus,
  expected: number | undefined,
): Promise<FullCollectionView> {
  const event = status === "archived" ? "collection.archived" : "collection.restored";
  return toCollectionView(
    await changeCollection(deps, p, ws, id, expected, (c) => (c.status === status && expected === undefined ? null : { status }), event),
  );
}

export async function setConnectorMapping(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  dto: SetConnectorMappingDto,
  expected: number | undefined,
): Promise<ConnectorMappingView> {
  return toConnectorMappingView(
    await changeCollection(deps, p, ws, id, expected, () => ({ connector_mapping: dto.mapping }), "collection.updated"),
  );
}

export async function setPresentation(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  dto: SetPresentationDto,
  expected: number | undefined,
): Promise<PresentationView> {
  const { expected_version: _v, ...presentation } = dto;
  return toPresentationView(await changeCollection(deps, p, ws, id, expected, () => ({ presentation }), "collection.updated"));
}

/**
 * `dry_run=true`: what a purge would remove. Otherwise the purge itself, which requires the
 * version the caller saw (`expected`). A purge cut short on a store without transactions is
 * finished by repeating the request.
 */
export async function purgeCollection(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  id: string,
  q: { dry_run?: QueryBool },
  expected: number | undefined,
): Promise<{ dry_run: boolean; removed: PurgePlan }> {
  const dryRun = parseBool("dry_run", q.dry_run) ?? false;
  const cur = await deps.stores.collections.get(ws.id, id);
  if (dryRun) {
    if (!cur) throw collectionNotFound();
    assertCanPurgeCollection(p, cur);
    const plan = await deps.stores.collections.purgePlan(ws.id, id);
    if (!plan) throw collectionNotFound();
    return { dry_run: true, removed: plan };
  }
  if (expected === undefined) {
    throw validationFailed("Cannot purge collection: expected_version (or If-Match) is required", [{
      path: "query.expected_version",
      message: "is required to purge",
    }]);
  }
  if (cur) assertCanPurgeCollection(p, cur);
  else assertCanWrite(p, "purge a collection");
  const result = await deps.stores.collections.purge(ws.id, id, expected);
  if (result === "not_found") throw collectionNotFound();
  if (result === "version_conflict") throw versionConflict("collection", cur?.version ?? 0);
  await releaseCapacity(deps.capacity, ws, "records", result.records);
  await releaseCapacity(deps.capacity, ws, "collections");
  await emit(deps, ws.id, "collection.purged", p, { ...result, actor_kind: actorKind(p) });
  return { dry_run: false, removed: result };
}
