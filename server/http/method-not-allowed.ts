interface RouteLike {
  method: string;
  path: string;
}

interface Template {
  segments: string[];
  methods: Set<string>;
}

/**
 * The methods a request path answers, for `405 Method Not Allowed` + `Allow` (RFC 9110 §15.5.6):
 * those of the most specific route template matching the path (a literal segment beats a
 * parameter, as the router itself prefers), with HEAD wherever GET is; null for a path no route
 * knows (a 404). Asked only on the error path; the table is built on first use, when every route
 * is registered.
 */
export function allowedMethodsOf(app: { routes: RouteLike[] }) {
  let templates: Template[] | null = null;
  return (path: string): string[] | null => {
    templates ??= buildTemplates(app.routes);
    const segments = path.split("/");
    let best: Template | null = null;
    for (const t of templates) {
      if (
        t.segments.length !== segments.length || !t.segments.every((s, i) => s.startsWith(":") ? segments[i] !== "" : s === segments[i])
      ) continue;
      if (!best || moreSpecific(t, best)) best = t;
    }
    if (!best) return null;
    const methods = [...best.methods];
    if (best.methods.has("GET") && !best.methods.has("HEAD")) methods.push("HEAD");
    return methods;
  };
}

/** At the first segment where they differ in kind, the literal one wins. */
function moreSpecific(a: Template, b: Template): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const aParam = a.segments[i]!.startsWith(":");
    const bParam = b.segments[i]!.startsWith(":");
    if (aParam !== bParam) return bParam;
  }
  return false;
}

function buildTemplates(routes: RouteLike[]): Template[] {
  const byPath = new Map<string, Template>();
  for (const r of routes) {
    const method = r.method.toUpperCase();
    if (method === "ALL" || r.path.includes("*")) continue;
    const t = byPath.get(r.path) ?? { segments: r.path.split("/"), methods: new Set<string>() };
    t.methods.add(method);
    byPath.set(r.path, t);
  }
  return [...byPath.values()];
}
