import { Type } from "@sinclair/typebox";
import {
  CollectionView,
  ConnectorMappingView,
  createCollection,
  CreateCollectionDto,
  type CreateCollectionDto as CreateCollectionBody,
  getCollection,
  getCollectionContext,
  getConnectorMapping,
  getPresentation,
  listCollections,
  PresentationView,
  purgeCollection,
  runDoctor,
  searchCollections,
  setCollectionStatus,
  setConnectorMapping,
  SetConnectorMappingDto,
  setPresentation,
  SetPresentationDto,
  updateCollection,
  UpdateCollectionDto,
  type UpdateCollectionDto as UpdateCollectionBody,
  VersionOnlyDto,
} from "../../../core/collections/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { withEtag } from "../../http/etag.ts";
import { expectedVersion } from "../../http/expected-version.ts";
import { authenticated, errors } from "../../http/schemas.ts";
import {
  CollectionGetQuery,
  CollectionListQuery,
  CollectionParams,
  CollectionSearchQuery,
  DoctorQuery,
  DoctorReport,
  IfMatch,
  PurgeQuery,
  SlugParams,
  VersionQuery,
} from "./schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["collections"];
const doc = (summary: string, description?: string) => ({ ...authenticated, tags, summary, ...(description ? { description } : {}) });
const CollectionList = Type.Object({ collections: Type.Array(CollectionView), has_more: Type.Boolean() });
const Plan = Type.Object({
  dry_run: Type.Boolean(),
  removed: Type.Object({
    collection_id: Type.String(),
    records: Type.Integer(),
    history_entries: Type.Integer(),
    outcomes: Type.Integer(),
    entity_links: Type.Integer(),
  }),
});
const Context = Type.Object({
  collection_id: Type.String(),
  criterion: Type.Array(Type.Object({ slug: Type.String(), topic: Type.Record(Type.String(), Type.Unknown()) })),
  missing: Type.Array(Type.String(), { description: "Slugs that name no topic (any more)." }),
});
const VERSIONED =
  "Optimistic concurrency: `expected_version` or `If-Match`; a stale one is 409 `VERSION_CONFLICT` with `current_version`, and nothing is applied.";

type CollectionScope = ReturnType<typeof workspaceScope>;

export function collectionRoutes(deps: ServerDeps) {
  const core = deps.core;
  const scope = workspaceScope(deps, "collections");
  const r = scope
    .post(
      "/collections",
      async ({ principal, workspace, body, set }) => {
        set.status = 201;
        return withEtag(set, await createCollection(core, principal, workspace, body as CreateCollectionBody));
      },
      {
        parse: "json",
        params: SlugParams,
        body: CreateCollectionDto,
        response: { 201: CollectionView, ...errors(400, 401, 402, 403, 404, 413) },
        detail: doc(
          "Create a collection",
          "`record_schema` types the records' fields and names the stages (default by archetype). Every problem of the schema, views and references is reported at once.",
        ),
      },
    )
    .get(
      "/collections",
      async ({ workspace, query }) => {
        const { items, has_more } = await listCollections(core, workspace, query);
        return { collections: items, has_more };
      },
      {
        params: SlugParams,
        query: CollectionListQuery,
        response: { 200: CollectionList, ...errors(400, 401, 404) },
        detail: doc(
          "List collections",
          "Newest first. The next page: `cursor` = the `id` of the last collection of this one (no `nextCursor`: the list is ordered by id).",
        ),
      },
    )
    .get(
      "/collections/search",
      async ({ workspace, query }) => {
        const { items, has_more } = await searchCollections(core, workspace, query);
        return { collections: items, has_more };
      },
      {
        params: SlugParams,
        query: CollectionSearchQuery,
        response: { 200: CollectionList, ...errors(400, 401, 404) },
        detail: doc("Search collections", "By words of the name, newest first, in the summary view; paged like the list."),
      },
    )
    .get("/collections/doctor", async ({ workspace, query }) => runDoctor(core, workspace, query.full === true), {
      params: SlugParams,
      query: DoctorQuery,
      response: { 200: DoctorReport, ...errors(400, 401, 404) },
      detail: doc(
        "Audit the workspace's collections",
        "Records whose status is no longer a stage, records failing the current schema, links to missing entities, likely duplicate entities (same kind and loosely normalised key or name). `full=true` scans everything; otherwise the newest 2,000 records and 2,000 entities, and `complete` says whether that was all. Each finding shows up to 100 items with an exact count of what was scanned.",
      ),
    })
    .get(
      "/collections/:id",
      async ({ workspace, params, query, set }) => withEtag(set, await getCollection(core, workspace, params.id, query)),
      {
        params: CollectionParams,
        query: CollectionGetQuery,
        response: { 200: CollectionView, ...errors(400, 401, 404) },
        detail: doc("Get a collection", "`ETag` carries the version for `If-Match`."),
      },
    );
  collectionChangeRoutes(scope, core);
  collectionSettingRoutes(scope, core);
  return r;
}

/** A collection edited, deleted, read as context, archived and restored. */
function collectionChangeRoutes(r: CollectionScope, core: ServerDeps["core"]): void {
  r
    .patch(
      "/collections/:id",
      async ({ principal, workspace, params, body, headers, query, set }) =>
        withEtag(
          set,
          await updateCollection(
            core,
            principal,
            workspace,
            params.id,
            body as UpdateCollectionBody,
            expectedVersion({ body, query, headers }),
          ),
        ),
      {
        parse: "json",
        params: CollectionParams,
        body: UpdateCollectionDto,
        headers: IfMatch,
        query: VersionQuery,
        response: { 200: CollectionView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(
          "Update a collection",
          `${UpdateCollectionDto.description} \`status\` archives (archived) or restores (active). ${VERSIONED}`,
        ),
      },
    )
    .delete(
      "/collections/:id",
      ({ principal, workspace, params, query, headers }) =>
        purgeCollection(core, principal, workspace, params.id, query, expectedVersion({ query, headers })),
      {
        params: CollectionParams,
        query: PurgeQuery,
        headers: IfMatch,
        response: { 200: Plan, ...errors(400, 401, 403, 404, 409) },
        detail: doc(
          "Purge a collection",
          "Removes the collection, its records, their history and outcomes (linked entities stay). `dry_run=true` answers what would be removed and removes nothing. The purge itself requires the version you saw (`expected_version` or `If-Match`; 400 without, 409 when stale) and is for owners/admins and the collection's owner. On MongoDB (no transactions) the collection disappears first and a purge cut short is finished by repeating the request.",
        ),
      },
    )
    .get(
      "/collections/:id/context",
      ({ workspace, params }) => getCollectionContext(core, workspace, params.id),
      {
        params: CollectionParams,
        response: { 200: Context, ...errors(400, 401, 404) },
        detail: doc(
          "Resolve the collection's criterion",
          "The Knowledge topics `criterion_rel_slugs` name (moves and merges followed), each with its `trust` verdict; slugs naming nothing are in `missing`.",
        ),
      },
    )
    .post(
      "/collections/:id/archive",
      async ({ principal, workspace, params, body, headers, query, set }) => {
        set.status = 201;
        return withEtag(
          set,
          await setCollectionStatus(core, principal, workspace, params.id, "archived", expectedVersion({ body, query, headers })),
        );
      },
      {
        parse: "json",
        params: CollectionParams,
        body: Type.Optional(VersionOnlyDto),
        headers: IfMatch,
        query: VersionQuery,
        response: { 201: CollectionView, ...errors(400, 401, 403, 404, 409) },
        detail: doc(
          "Archive a collection",
          `Its records become read-only; lists hide it unless \`status=archived\`. Archiving an archived collection changes nothing. ${VERSIONED}`,
        ),
      },
    )
    .post(
      "/collections/:id/restore",
      async ({ principal, workspace, params, body, headers, query, set }) => {
        set.status = 201;
        return withEtag(
          set,
          await setCollectionStatus(core, principal, workspace, params.id, "active", expectedVersion({ body, query, headers })),
        );
      },
      {
        parse: "json",
        params: CollectionParams,
        body: Type.Optional(VersionOnlyDto),
        headers: IfMatch,
        query: VersionQuery,
        response: { 201: CollectionView, ...errors(400, 401, 403, 404, 409) },
        detail: doc("Restore an archived collection", `Back to active. ${VERSIONED}`),
      },
    );
}

/** A collection's connector mapping and presentation, read and set. */
function collectionSettingRoutes(r: CollectionScope, core: ServerDeps["core"]): void {
  r
    .get(
      "/collections/:id/connector-mapping",
      async ({ workspace, params, set }) => withEtag(set, await getConnectorMapping(core, workspace, params.id)),
      {
        params: CollectionParams,
        response: { 200: ConnectorMappingView, ...errors(400, 401, 404) },
        detail: doc("Read the connector mapping"),
      },
    )
    .put(
      "/collections/:id/connector-mapping",
      async ({ principal, workspace, params, body, headers, query, set }) =>
        withEtag(set, await setConnectorMapping(core, principal, workspace, params.id, body, expectedVersion({ body, query, headers }))),
      {
        parse: "json",
        params: CollectionParams,
        body: SetConnectorMappingDto,
        headers: IfMatch,
        query: VersionQuery,
        response: { 200: ConnectorMappingView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(
          "Set the connector mapping",
          `Replaces it (null removes it). Mapped fields must exist in the record_schema. ${VERSIONED}`,
        ),
      },
    )
    .get(
      "/collections/:id/presentation",
      async ({ workspace, params, set }) => withEtag(set, await getPresentation(core, workspace, params.id)),
      {
        params: CollectionParams,
        response: { 200: PresentationView, ...errors(400, 401, 404) },
        detail: doc("Read the presentation"),
      },
    )
    .put(
      "/collections/:id/presentation",
      async ({ principal, workspace, params, body, headers, query, set }) =>
        withEtag(set, await setPresentation(core, principal, workspace, params.id, body, expectedVersion({ body, query, headers }))),
      {
        parse: "json",
        params: CollectionParams,
        body: SetPresentationDto,
        headers: IfMatch,
        query: VersionQuery,
        response: { 200: PresentationView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc("Set the presentation", `${SetPresentationDto.description} ${VERSIONED}`),
      },
    );
}
