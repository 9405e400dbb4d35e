import { codeContextSeeder } from "./code-context.ts";
import type { TransferSeeder } from "./seeder.ts";
import { sharingSeeder } from "./sharing.ts";
import { topicsSeeder } from "./topics.ts";

export type { TransferSeeder } from "./seeder.ts";

/** Every module's seeder, in the adapters' bundle order. A module adds its own here. */
export const transferSeeders: readonly TransferSeeder[] = [
  topicsSeeder,
  codeContextSeeder,
  sharingSeeder,
];
