import { type AnyElysia, Elysia } from "elysia";
import { AUTHORITY, type ScopedOperation, scopesFor } from "../../core/access/mod.ts";
import { authorityOf } from "./route-authorities.ts";

// The generated document is walked as plain JSON: its shape is OpenAPI's, not a type of ours.
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/**
 * What the OpenAPI plugin cannot say from route schemas, added to the document it generates
 * (docs/decisions/014-openapi-conformance.md):
 * - `servers: [{ url: "/" }]`: paths carry their full `/api/v1` prefix (and share pages live at
 *   the root), so the server is the origin the document was fetched from;
 * - `links` from each create (a 201 answering an `id`) to the operations on the item it created,
 *   so clients and Schemathesis' stateful phase chain `POST /collections` → `GET /collections/{id}`.
 * - `oauth2` beside `bearer` on every operation an OAuth token may call, with the scopes it takes:
 *   those of the operation's declared authority (server/http/route-authorities.ts,
 *   core/access/authority.ts), none where no token passes (the operator's routes, the consent
 *   decision, deleting a relation), and `x-authority` naming that authority (README, "Who may call what").
 * - a 403 on every unsafe operation the `session` cookie may call: a cross-origin request riding
 *   the cookie is refused so by any of them (the Origin rule), whatever else the route forbids.
 * A local hook of this wrapper: it runs on the plugin's own routes only, once per generated document.
 */
export function conformingOpenApi(plugin: AnyElysia) {
  const conformed = new WeakMap<object, Json>();
  return new Elysia({ name: "openapi-conformance" })
    .onAfterHandle(({ responseValue }) => {
      if (!isDocument(responseValue)) return;
      let doc = conformed.get(responseValue);
      if (!doc) conformed.set(responseValue, doc = conform(responseValue));
      return doc;
    })
    .use(plugin);
}

function isDocument(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !(value instanceof Response) && "openapi" in value && "paths" in value;
}

export function conform(doc: Json): Json {
  const paths: Json = structuredClone(doc.paths ?? {});
  addCreateLinks(paths);
  addOAuthScopes(paths);
  addSessionOriginRefusal(paths);
  return {
    ...doc,
    servers: doc.servers ?? [{ url: "/", description: "The origin this document is served from; paths carry the full `/api/v1` prefix." }],
    paths,
  };
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const paramsOf = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * For `POST P` answering 201 with an `id`: a link to every operation on `P/{x}` and below whose
 * only parameter `P` does not have is `x`. The parameters of `P` are passed on from the request.
 * Not to a DELETE below the item of a path that has its own POST (`…/{topic}/share`): that
 * sub-resource is made by its own create, not by P's, so it need not exist yet.
 */
function addCreateLinks(paths: Json): void {
  for (const [path, item] of Object.entries(paths)) {
    const created = item.post?.responses?.["201"];
    const properties = created?.content?.["application/json"]?.schema?.properties;
    if (!properties?.id) continue;
    const known = new Set(paramsOf(path));
    const links: Json = {};
    for (const [target, targetItem] of Object.entries(paths)) {
      const rest = /^\/\{([^}]+)\}(\/.*)?$/.exec(target.slice(path.length));
      if (!target.startsWith(path) || !rest) continue;
      const itemParam = rest[1]!;
      if (paramsOf(target).some((p) => p !== itemParam && !known.has(p))) continue;
      for (const method of METHODS) {
        const op = targetItem[method];
        if (!op?.operationId) continue;
        if (method === "delete" && rest[2] && targetItem.post) continue;
        const parameters: Record<string, string> = {};
        for (const p of paramsOf(target)) {
          parameters[p] = known.has(p) ? `$request.path.${p}` : `$response.body#/${itemKey(p, properties)}`;
        }
        links[op.operationId] = {
          operationId: op.operationId,
          parameters,
          description: `${method.toUpperCase()} ${target} on the item just created.`,
        };
      }
    }
    if (Object.keys(links).length > 0) created.links = { ...created.links, ...links };
  }
}

/** The created item's property a path parameter takes: its namesake, else `slug` for a parameter that is no id (`{topic}`), else `id`. */
function itemKey(param: string, properties: Json): string {
  if (properties[param]) return param;
  if (!/id$/i.test(param) && properties.slug) return "slug";
  return "id";
}

const READS = new Set(["get", "head", "options"]);

function addOAuthScopes(paths: Json): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (typeof op !== "object" || op === null || !("responses" in op)) continue;
      const authority = authorityOf(method, path);
      if (authority) (op as Json)["x-authority"] = authority;
      const security = (op as Json).security as Array<Record<string, string[]>> | undefined;
      if (!Array.isArray(security) || !security.some((s) => "bearer" in s)) continue;
      // Undeclared (the authorization matrix fails on it): a read's scope or a write's, by method.
      const operation: ScopedOperation | null = authority ? AUTHORITY[authority].oauth : READS.has(method) ? "read" : "write";
      // A new array: operations share the one `authenticated` requirement list.
      if (operation) (op as Json).security = [...security, { oauth2: scopesFor(operation) }];
    }
  }
}

const UNSAFE = new Set(["post", "put", "patch", "delete"]);

function addSessionOriginRefusal(paths: Json): void {
  for (const item of Object.values(paths)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const security = (op as Json)?.security as Array<Record<string, string[]>> | undefined;
      const responses = (op as Json)?.responses as Json | undefined;
      if (!UNSAFE.has(method) || !responses || responses["403"] || !responses["401"]) continue;
      if (!Array.isArray(security) || !security.some((s) => "session" in s)) continue;
      responses["403"] = {
        ...responses["401"],
        description: "Riding the session cookie without an `Origin` of this service (FORBIDDEN).",
      };
    }
  }
}
