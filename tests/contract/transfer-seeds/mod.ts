import { accessSeeder } from "./access.ts";
import { codeContextSeeder } from "./code-context.ts";
import { collectionsSeeder } from "./collections.ts";
import { contactsSeeder } from "./contacts.ts";
import { creditsSeeder } from "./credits.ts";
import { radarSeeder } from "./radar.ts";
import { sharingSeeder } from "./sharing.ts";
import { topicsSeeder } from "./topics.ts";
import { workspacesSeeder } from "./workspaces.ts";
import type { TransferSeeder } from "./seeder.ts";

export type { TransferSeeder } from "./seeder.ts";

/** Every module's seeder, in the adapters' bundle order. A module adds its own here. */
export const transferSeeders: readonly TransferSeeder[] = [
  workspacesSeeder,
  accessSeeder,
  topicsSeeder,
  codeContextSeeder,
  sharingSeeder,
  collectionsSeeder,
  creditsSeeder,
  radarSeeder,
  contactsSeeder,
];
