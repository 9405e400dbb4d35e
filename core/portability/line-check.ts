import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import type { ErrorDetail } from "../kernel/errors.ts";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import { ARCHIVE_LINE_SCHEMAS } from "./lines.ts";
import type { ArchiveKind } from "./model.ts";

/**
 * A line against its kind's schema. Compiled once per kind (an archive has hundreds of thousands
 * of lines; the interpreted check is several times slower); where a host forbids generated code,
 * the interpreted check does the same work.
 */
interface Checker {
  check(value: unknown): boolean;
  errors(value: unknown): Iterable<Parameters<typeof schemaErrorDetails>[0] extends Iterable<infer E> ? E : never>;
}

const checkers = new Map<ArchiveKind, Checker>();

function checkerOf(kind: ArchiveKind): Checker {
  let c = checkers.get(kind);
  if (c) return c;
  const schema: TSchema = ARCHIVE_LINE_SCHEMAS[kind];
  try {
    const compiled = TypeCompiler.Compile(schema);
    c = { check: (v) => compiled.Check(v), errors: (v) => compiled.Errors(v) };
  } catch {
    c = { check: (v) => Value.Check(schema, v), errors: (v) => Value.Errors(schema, v) };
  }
  checkers.set(kind, c);
  return c;
}

/** The problems of a line of `kind` (JSON pointer and message), at most `limit`; empty when it is valid. */
export function lineProblems(kind: ArchiveKind, value: unknown, limit = 5): ErrorDetail[] {
  const c = checkerOf(kind);
  if (c.check(value)) return [];
  return schemaErrorDetails(c.errors(value), { limit });
}
