import { Elysia } from "elysia";
import { SCALAR_VERSION, scalarBundle } from "../../http/api-reference-bundle.ts";
import {
  API_REFERENCE_CSP,
  API_REFERENCE_INIT_FILE,
  API_REFERENCE_INIT_SCRIPT,
  renderApiReferencePage,
} from "../../http/api-reference-page.ts";

/** Both assets are named by version or content: a new release is a new URL, so caches may keep them. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const JAVASCRIPT = "text/javascript; charset=utf-8";

/** Whether the client takes gzip (`Accept-Encoding` names it, with no `q=0`). */
function acceptsGzip(request: Request): boolean {
  const accepted = request.headers.get("accept-encoding");
  if (accepted === null) return false;
  return accepted.split(",").some((part) => {
    const [coding, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return coding === "gzip" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/**
 * The interactive API reference, mounted under the API prefix: `GET /docs` and its two scripts,
 * all from this server (the OpenAPI plugin serves only the document, `GET /openapi.json`). Hidden
 * from the OpenAPI document, as the plugin's own page was.
 */
export function apiReferenceRoutes() {
  const bundleFile = `scalar-api-reference-${SCALAR_VERSION}.js`;
  const page = renderApiReferencePage("API reference", bundleFile, "docs/assets");
  const hide = { detail: { hide: true } };
  return new Elysia({ name: "api-reference" })
    .get(
      "/docs",
      ({ set }) => {
        set.headers["content-type"] = "text/html; charset=utf-8";
        set.headers["content-security-policy"] = API_REFERENCE_CSP;
        // The page names this release's assets: revalidated on each visit, so an upgrade shows at once.
        set.headers["cache-control"] = "no-cache";
        return page;
      },
      hide,
    )
    .get(
      `/docs/assets/${bundleFile}`,
      async ({ request, set }) => {
        const gzip = acceptsGzip(request);
        set.headers["content-type"] = JAVASCRIPT;
        set.headers["cache-control"] = IMMUTABLE;
        set.headers.vary = "accept-encoding";
        if (gzip) set.headers["content-encoding"] = "gzip";
        return new Response(await scalarBundle(gzip));
      },
      hide,
    )
    .get(
      `/docs/assets/${API_REFERENCE_INIT_FILE}`,
      ({ set }) => {
        set.headers["content-type"] = JAVASCRIPT;
        set.headers["cache-control"] = IMMUTABLE;
        return API_REFERENCE_INIT_SCRIPT;
      },
      hide,
    );
}
