/**
 * People Data Labs names countries in lower-case English ("united states"), where radar's filters
 * and results use ISO 3166-1 alpha-2. This table covers the countries radar is used with; a filter
 * naming a code outside it is refused (`unsupported_filter`) rather than silently matching nothing.
 */
const NAMES: Record<string, string> = {
  US: "united states",
  GB: "united kingdom",
  DE: "germany",
  FR: "france",
  NL: "netherlands",
  ES: "spain",
  SE: "sweden",
  CA: "canada",
  AU: "australia",
  IN: "india",
  IE: "ireland",
  IT: "italy",
  PT: "portugal",
  BE: "belgium",
  CH: "switzerland",
  AT: "austria",
  DK: "denmark",
  NO: "norway",
  FI: "finland",
  PL: "poland",
  CZ: "czechia",
  BR: "brazil",
  MX: "mexico",
  AR: "argentina",
  JP: "japan",
  CN: "china",
  SG: "singapore",
  KR: "south korea",
  IL: "israel",
  AE: "united arab emirates",
  ZA: "south africa",
  NZ: "new zealand",
  NG: "nigeria",
  KE: "kenya",
  ID: "indonesia",
  PH: "philippines",
};
const CODES = new Map(Object.entries(NAMES).map(([code, name]) => [name, code]));

/** "us" → "united states"; null for a code the table lacks. */
export function pdlCountryName(code: string): string | null {
  return NAMES[code.toUpperCase()] ?? null;
}

/** "united states" → "US"; null when unknown or absent. */
export function isoCountryCode(name: unknown): string | null {
  return typeof name === "string" ? CODES.get(name.toLowerCase()) ?? null : null;
}
