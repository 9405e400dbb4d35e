import { FormatRegistry } from "@sinclair/typebox";
import { fullFormats } from "elysia/type-system/format";
import "@elysiajs/openapi";

/**
 * TypeBox's string formats, as request validation checks them. `@elysiajs/openapi` replaces
 * them, on import, with checks that build a Zod schema on every call (a tenth of an unlock's
 * server time went there). Imported after it, this puts back the regular-expression checks
 * Elysia itself registers (ajv-formats'), so a `uuid` or `date-time` costs one match.
 */
const check = (format: (typeof fullFormats)[keyof typeof fullFormats]) =>
  format instanceof RegExp ? (v: string) => format.test(v) : typeof format === "function" ? (v: string) => format(v) : null;

for (const name of ["uuid", "date-time", "date", "time", "email", "uri", "url", "hostname", "ipv4", "ipv6"] as const) {
  const fn = check(fullFormats[name]);
  if (fn) FormatRegistry.Set(name, fn);
}
