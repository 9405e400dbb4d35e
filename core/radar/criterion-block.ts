import { Value } from "@sinclair/typebox/value";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import type { ErrorDetail } from "../kernel/errors.ts";
import { CRITERION_KINDS, type CriterionFilter, type CriterionKind, type EmployeeRange, filterSchemaOf } from "./criterion-filter.ts";

/**
 * A criterion lives in a topic's Markdown body as one fenced code block whose info string is
 * `radar-criterion`, holding JSON `{kind, filter}`. Pure: finding the block, parsing and
 * validating it (every problem reported), and rendering a revised body that keeps everything
 * outside the block's content byte for byte.
 */

export const CRITERION_TAG = "radar-criterion";
export const CRITERION_INFO = "radar-criterion";

export interface CriterionBlock {
  kind: CriterionKind;
  filter: CriterionFilter;
}

/** Where a block's content sits in the body: `[start, end)`, the fence lines excluded. */
interface Fence {
  start: number;
  end: number;
  indent: string;
  newline: string;
  closed: boolean;
}

export type ParsedCriterion =
  | { ok: true; block: CriterionBlock; fence: Fence }
  | { ok: false; missing: true; problems: ErrorDetail[] }
  | { ok: false; missing: false; problems: ErrorDetail[] };

const OPEN = /^( {0,3})(`{3,}|~{3,})([^\r\n]*)(\r?\n)?$/;

/** Every fenced code block of a CommonMark body whose info string's first word is `radar-criterion`. */
function criterionFences(body: string): Fence[] {
  const found: Fence[] = [];
  const lines = body.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  let offset = 0;
  let open: { marker: string; indent: string; newline: string; start: number; ours: boolean } | null = null;
  for (const line of lines) {
    const at = offset;
    offset += line.length;
    if (open) {
      const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?\n?$/.exec(line)?.[1] ?? "";
      if (closing !== "" && closing[0] === open.marker[0] && closing.length >= open.marker.length) {
        if (open.ours) found.push({ start: open.start, end: at, indent: open.indent, newline: open.newline, closed: true });
        open = null;
      }
      continue;
    }
    const m = OPEN.exec(line);
    if (!m) continue;
    const [, indent = "", marker = "", rest = "", newline = "\n"] = m;
    if (marker[0] === "`" && rest.includes("`")) continue;
    open = { marker, indent, newline, start: offset, ours: rest.trim().split(/\s+/)[0] === CRITERION_INFO };
  }
  // CommonMark runs an unclosed fence to the end of the document.
  if (open?.ours) found.push({ start: open.start, end: body.length, indent: open.indent, newline: open.newline, closed: false });
  return found;
}

function rangeProblems(range: EmployeeRange | undefined, path: string): ErrorDetail[] {
  if (range?.min === undefined || range.max === undefined || range.min <= range.max) return [];
  return [{ path, message: "min must not exceed max" }];
}

/**
 * Every problem of `filter` as a filter of `kind` (paths under `base`): the schema's, then the
 * rules a schema cannot state (an employee range's `min` ≤ `max`). Empty: it is valid.
 */
export function filterProblems(kind: CriterionKind, filter: unknown, base = "/filter"): ErrorDetail[] {
  const problems = schemaErrorDetails(Value.Errors(filterSchemaOf(kind), filter), { prefix: base, limit: Infinity });
  if (problems.length > 0) return problems;
  const f = filter as { employee_count?: EmployeeRange; company?: { employee_count?: EmployeeRange } };
  return [
    ...rangeProblems(f.employee_count, `${base}/employee_count`),
    ...rangeProblems(kind === "person" ? f.company?.employee_count : undefined, `${base}/company/employee_count`),
  ];
}

/** The block's JSON, checked: `{kind, filter}` and nothing else. */
function blockProblems(json: unknown): ErrorDetail[] {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    return [{ path: "/", message: "expected a JSON object {kind, filter}" }];
  }
  const o = json as Record<string, unknown>;
  const problems: ErrorDetail[] = Object.keys(o)
    .filter((k) => k !== "kind" && k !== "filter")
    .map((k) => ({ path: `/${k}`, message: "unknown field" }));
  const kindOk = CRITERION_KINDS.includes(o.kind as CriterionKind);
  if (!kindOk) problems.push({ path: "/kind", message: `expected one of ${CRITERION_KINDS.join(", ")}` });
  if (o.filter === undefined) problems.push({ path: "/filter", message: "required" });
  else if (kindOk) problems.push(...filterProblems(o.kind as CriterionKind, o.filter));
  return problems;
}

/** The criterion a body holds: its one block, parsed and valid; else why not. */
export function parseCriterion(body: string): ParsedCriterion {
  const fences = criterionFences(body);
  if (fences.length === 0) return { ok: false, missing: true, problems: [{ path: "/", message: "no radar-criterion block" }] };
  if (fences.length > 1) {
    return { ok: false, missing: false, problems: [{ path: "/", message: `${fences.length} radar-criterion blocks; expected one` }] };
  }
  const [fence] = fences as [Fence];
  const problems: ErrorDetail[] = fence.closed ? [] : [{ path: "/", message: "the radar-criterion block is not closed" }];
  let json: unknown;
  try {
    json = JSON.parse(body.slice(fence.start, fence.end));
  } catch (e) {
    return { ok: false, missing: false, problems: [...problems, { path: "/", message: `not JSON: ${(e as Error).message}` }] };
  }
  problems.push(...blockProblems(json));
  if (problems.length > 0) return { ok: false, missing: false, problems };
  return { ok: true, block: json as CriterionBlock, fence };
}

/** The block as written into a body: two-space JSON, each line at the fence's indent. */
function renderBlock(block: CriterionBlock, indent: string, newline: string): string {
  const json = JSON.stringify({ kind: block.kind, filter: block.filter }, null, 2);
  return json.split("\n").map((line) => `${indent}${line}${newline}`).join("");
}

/**
 * `body` with its (valid) criterion block's content replaced by `block`: the fence lines and
 * every character outside the block stay as they were.
 */
export function renderCriterion(body: string, parsed: Extract<ParsedCriterion, { ok: true }>, block: CriterionBlock): string {
  const { start, end, indent, newline } = parsed.fence;
  return body.slice(0, start) + renderBlock(block, indent, newline) + body.slice(end);
}

/** A new topic body holding `block` after `intro` (for callers that create a criterion). */
export function criterionBody(block: CriterionBlock, intro = ""): string {
  const lead = intro === "" ? "" : `${intro.replace(/\s+$/, "")}\n\n`;
  return `${lead}\`\`\`${CRITERION_INFO}\n${renderBlock(block, "", "\n")}\`\`\`\n`;
}
