import { createPdlDirectory } from "../adapters/pdl/mod.ts";
import { createSampleDirectory } from "../adapters/radar-sample/mod.ts";
import type { ProspectDirectory } from "../core/radar/mod.ts";
import type { RadarProviderConfig } from "./config.ts";

/** The prospect directory `RADAR_PROVIDER` names (docs/decisions/022-prospect-directory.md). */
export function createProspects(provider: RadarProviderConfig): ProspectDirectory {
  return provider.kind === "pdl" ? createPdlDirectory({ apiKey: provider.apiKey, baseUrl: provider.baseUrl }) : createSampleDirectory();
}
