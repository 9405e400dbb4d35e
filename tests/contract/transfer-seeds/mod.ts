import type { TransferSeeder } from "./seeder.ts";
import { collectionsSeeder } from "./collections.ts";
import { creditsSeeder } from "./credits.ts";
import { contactsSeeder } from "./contacts.ts";
import { radarSeeder } from "./radar.ts";
import { accessSeeder } from "./access.ts";
import { codeContextSeeder } from "./code-context.ts";
import { sharingSeeder } from "./sharing.ts";
import { topicsSeeder } from "./topics.ts";
import { workspacesSeeder } from "./workspaces.ts";
import { webhookSeeder } from "./webhooks.ts";
import { jobSeeder } from "./jobs.ts";
import { identitySeeder } from "./identity.ts";
import { mailSeeder } from "./mail.ts";
import { billingSeeder } from "./billing.ts";
import { offerSeeder } from "./offers.ts";
import { supportSeeder } from "./support-desk.ts";

export type { TransferSeeder } from "./seeder.ts";

/** Every module's seeder, in the adapters' bundle order. A module adds its own here. */
export const transferSeeders: readonly TransferSeeder[] = [
  workspacesSeeder,
  accessSeeder,
  topicsSeeder,
  codeContextSeeder,
  sharingSeeder,
  collectionsSeeder,
  webhookSeeder,
  creditsSeeder,
  radarSeeder,
  contactsSeeder,
  jobSeeder,
  identitySeeder,
  mailSeeder,
  billingSeeder,
  offerSeeder,
  supportSeeder,
];
