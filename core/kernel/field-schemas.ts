import { Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "./ids.ts";

/** Field schemas every module's bodies reuse: kept here so no module reaches into another for them. */
export const IdSchema = Type.String({ pattern: UUID_PATTERN, description: "A UUIDv7." });
export const NameSchema = Type.String({ minLength: 1, maxLength: 120 });
