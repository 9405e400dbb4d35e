/** People Data Labs v5 as a prospect directory (`RADAR_PROVIDER=pdl`). */
export { createPdlDirectory } from "./directory.ts";
export { createPdlClient, PDL_DEFAULT_BASE_URL, type PdlClientOptions, waitForReset } from "./client.ts";
export { pdlQuery } from "./query.ts";
export { isoCountryCode, pdlCountryName } from "./countries.ts";
