import type { TSchema } from "@sinclair/typebox";

interface RouteLike {
  method: string;
  path: string;
  hooks: { query?: unknown };
}

/**
 * Types the integer query parameters of a request from its route's declared query schema, before
 * validation: the wire value is a string, and Elysia coerces `number` and `boolean` parameters
 * itself but not `integer` ones. A value that is not a plain integer stays a string, so validation
 * refuses it naming the parameter. A route without integer parameters (most of them) costs one Map
 * lookup by its path, which is the same string on every request; the index is built on first use,
 * when every route is registered.
 */
export function integerQueryCoercion(app: { routes: RouteLike[] }) {
  let index: Map<string, Map<string, string[]>> | null = null;
  return ({ request, route, query }: { request: Request; route: string; query: Record<string, unknown> }) => {
    index ??= indexIntegerParams(app.routes);
    const byMethod = index.get(route);
    if (!byMethod) return;
    const names = byMethod.get(request.method === "HEAD" ? "GET" : request.method);
    if (!names) return;
    for (const name of names) {
      const raw = query[name];
      if (typeof raw === "string" && /^-?\d{1,15}$/.test(raw)) query[name] = Number(raw);
    }
  };
}

/** path → method → the names of its integer query parameters, for the routes that have any. */
function indexIntegerParams(routes: RouteLike[]): Map<string, Map<string, string[]>> {
  const index = new Map<string, Map<string, string[]>>();
  for (const r of routes) {
    const properties = (r.hooks.query as { properties?: Record<string, TSchema> } | undefined)?.properties;
    if (!properties) continue;
    const names = Object.entries(properties).filter(([, s]) => s.type === "integer").map(([name]) => name);
    if (names.length === 0) continue;
    let byMethod = index.get(r.path);
    if (!byMethod) index.set(r.path, byMethod = new Map());
    byMethod.set(r.method, names);
  }
  return index;
}
