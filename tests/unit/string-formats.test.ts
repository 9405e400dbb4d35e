import { describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Type } from "@sinclair/typebox";
import "../../server/app.ts";

describe("string formats of request validation", () => {
  test("uuid and date-time are checked by the server's own rules once the OpenAPI plugin is loaded", () => {
    const uuid = TypeCompiler.Compile(Type.String({ format: "uuid" }));
    expect(uuid.Check("01a214a1-11b8-7001-a9fc-e04b6cf8d2fe")).toBe(true);
    expect(uuid.Check("01a214a1-11b8-7001-a9fc-e04b6cf8d2f")).toBe(false);
    expect(uuid.Check("not-a-uuid")).toBe(false);
    const at = TypeCompiler.Compile(Type.String({ format: "date-time" }));
    expect(at.Check("2026-11-25T21:09:04.123Z")).toBe(true);
    expect(at.Check("2026-11-25T21:09:04+01:00")).toBe(true);
    expect(at.Check("2026-02-30T10:00:00Z")).toBe(false);
    expect(at.Check("yesterday")).toBe(false);
  });
});
