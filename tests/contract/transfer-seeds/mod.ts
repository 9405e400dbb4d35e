import { contactsSeeder } from "./contacts.ts";
import { radarSeeder } from "./radar.ts";
import type { TransferSeeder } from "./seeder.ts";

export type { TransferSeeder } from "./seeder.ts";

/** Every module's seeder, in the adapters' bundle order. A module adds its own here. */
export const transferSeeders: readonly TransferSeeder[] = [
  radarSeeder,
  contactsSeeder,
];
