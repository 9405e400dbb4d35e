import { MAX_VALUE_DEPTH } from "./record-schema.ts";

/**
 * What a value of an undeclared field may be: any JSON value, with arrays and objects nested at
 * most `MAX_VALUE_DEPTH` deep, and keys of nested objects that every store keeps as given
 * (MongoDB reads a key starting with `$` as an operator and one holding `.` as a path), and no
 * array directly inside an array (FerretDB, a MongoDB-wire store we support, refuses those:
 * `[[1, 2]]` is written `[{"row": [1, 2]}]`). One rule on every backend, so that moving a
 * workspace between them never fails on a value. Returns the first problem, with its path
 * under `path`, or null.
 */
export function openValueProblem(value: unknown, path: string, depth = 1): { path: string; message: string } | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : { path, message: "must be a finite number" };
  if (typeof value !== "object") return { path, message: "must be a JSON value" };
  if (depth > MAX_VALUE_DEPTH) return { path, message: `nests arrays and objects deeper than ${MAX_VALUE_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (Array.isArray(value[i])) return { path: `${path}/${i}`, message: "is an array inside an array: wrap it in an object" };
      const p = openValueProblem(value[i], `${path}/${i}`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const at = `${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (k.length === 0 || k.length > 200 || k.startsWith("$") || k.includes(".")) {
      return { path: at, message: "a key of a nested object must be 1 to 200 characters, not start with $ and not contain ." };
    }
    const p = openValueProblem(v, at, depth + 1);
    if (p) return p;
  }
  return null;
}
