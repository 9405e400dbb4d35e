import { collectionsSeeder } from "./collections.ts";
import { creditsSeeder } from "./credits.ts";
import type { TransferSeeder } from "./seeder.ts";

export type { TransferSeeder } from "./seeder.ts";

/** Every module's seeder, in the adapters' bundle order. A module adds its own here. */
export const transferSeeders: readonly TransferSeeder[] = [collectionsSeeder, creditsSeeder];
