import { type TSchema, Type } from "@sinclair/typebox";
import { FIELD_NAME_PATTERN, MAX_SELECTED_FIELDS } from "../../core/collections/mod.ts";
import { type LimitRule, MAX_OFFSET, UUID_PATTERN } from "../../core/kernel/mod.ts";

/**
 * Query and header parameters as the OpenAPI document declares them: with the constraints the
 * server really enforces, so a request valid by the document is accepted and one invalid by it is
 * refused (docs/decisions/014-openapi-conformance.md). The wire value is a string either way;
 * integers are typed from it by query-coercion.ts, booleans by Elysia, before validation.
 */
const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const integerParam = (minimum: number, maximum: number, description: string) =>
  optional(Type.Integer({ minimum, maximum, description }));

export const limitParam = (rule: LimitRule, what = "Page size") =>
  integerParam(1, rule.max, `${what}, 1 to ${rule.max} (default ${rule.default}). Over ${rule.max} is a 400.`);

export const offsetParam = integerParam(0, MAX_OFFSET, `Rows to skip, 0 to ${MAX_OFFSET} (default 0).`);

export const booleanParam = (description: string) => optional(Type.Boolean({ description }));

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/**
 * One of `values`. Declared as a string `enum` (what client generators read); TypeBox ignores
 * `enum` on a string, so the same list is also the validating `pattern`. (A union of literals
 * would validate, but the OpenAPI plugin renders it without its description.)
 */
export const enumParam = (values: readonly string[], description: string) =>
  optional(Type.String({ enum: [...values], pattern: `^(${values.map(escapeRegex).join("|")})$`, description }));

export const uuidParam = (description: string) => optional(Type.String({ format: "uuid", pattern: UUID_PATTERN, description }));

export const timestampParam = (description: string) => optional(Type.String({ format: "date-time", description }));

const FIELD_NAME = FIELD_NAME_PATTERN.slice(1, -1);
/** A comma-separated list of record field names (`select`, `fields`), at most MAX_SELECTED_FIELDS. */
export const fieldNamesParam = (description: string) =>
  optional(Type.String({ pattern: `^${FIELD_NAME}(,${FIELD_NAME}){0,${MAX_SELECTED_FIELDS - 1}}$`, description }));

/** A version: what `expected_version` and an `ETag` carry. */
export const versionParam = (description: string) => integerParam(1, 999_999_999, description);

/** `If-Match` as the server reads it: `"3"`, `W/"3"`, `3` or `*` (expected-version.ts). */
export const IfMatchHeader = optional(
  Type.String({
    pattern: '^\\s*(\\*|(W/)?"?[0-9]{1,9}"?)\\s*$',
    description: 'The version the write is based on, e.g. `"3"` (the `ETag` of a read); `*` for any version.',
  }),
);
