import { type ErrorDetail, validationFailed } from "../kernel/errors.ts";
import { compileFilter, operandOf } from "./record-filter.ts";
import { declaredAggregateProblems } from "./record-rollup.ts";
import { compileSort } from "./record-sort.ts";
import { admitsField, type RecordSchema, schemaProblems } from "./record-schema.ts";
import type { Collection } from "./model.ts";

/**
 * Whether a collection's parts agree with its record_schema: the schema itself, then views,
 * presentation and connector mapping, which name fields of it. Every problem at once.
 */
export function collectionProblems(c: Pick<Collection, "record_schema" | "views" | "presentation" | "connector_mapping">): ErrorDetail[] {
  const schema = c.record_schema;
  const out = schemaProblems(schema, "/record_schema");
  const path = (at: string, p: string, message: string) => out.push({ path: at, message: `${p}: ${message}` });
  const operand = (at: string, p: string) => {
    const o = operandOf(schema, p);
    if (typeof o === "string") path(at, p, o);
  };
  const field = (at: string, name: string) => {
    if (!admitsField(schema, name)) path(at, name, "is not a field of the record_schema");
  };
  (c.views as { name: string; columns?: string[]; group_by?: string; sort?: unknown; filter?: unknown }[]).forEach((v, i) => {
    const at = `/views/${i}`;
    out.push(...declaredAggregateProblems(schema, v, at));
    v.columns?.forEach((col, j) => operand(`${at}/columns/${j}`, col));
    if (v.group_by) operand(`${at}/group_by`, v.group_by);
    for (const [key, compile] of [["sort", compileSort], ["filter", compileFilter]] as const) {
      const value = v[key];
      if (value === undefined) continue;
      try {
        (compile as (s: RecordSchema, v: unknown) => unknown)(schema, value);
      } catch (e) {
        for (const d of (e as { details?: ErrorDetail[] }).details ?? []) {
          out.push({ path: `${at}/${key}${d.path.replace(/^\/(filter|sort)/, "")}`, message: d.message });
        }
      }
    }
  });
  const names = new Set((c.views as { name: string }[]).map((v) => v.name));
  if (names.size !== c.views.length) out.push({ path: "/views", message: "two views have the same name" });
  const pres = c.presentation as Record<string, unknown> | null;
  if (pres) {
    for (const key of ["title_field", "subtitle_field", "badge_field"]) {
      if (typeof pres[key] === "string") field(`/presentation/${key}`, pres[key] as string);
    }
    (pres.card_fields as string[] | undefined)?.forEach((f, i) => field(`/presentation/card_fields/${i}`, f));
    if (typeof pres.color_by === "string") operand("/presentation/color_by", pres.color_by);
    if (typeof pres.default_view === "string" && !names.has(pres.default_view)) {
      path("/presentation/default_view", pres.default_view, "is not one of the collection's views");
    }
  }
  const mapping = c.connector_mapping as { fields?: Record<string, string> } | null;
  for (const name of Object.keys(mapping?.fields ?? {})) field(`/connector_mapping/fields/${name}`, name);
  return out;
}

export function assertCollectionValid(c: Parameters<typeof collectionProblems>[0], what: string): void {
  const problems = collectionProblems(c);
  if (problems.length) throw validationFailed(`Invalid ${what}`, problems);
}
