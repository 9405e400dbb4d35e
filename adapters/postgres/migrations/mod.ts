import m001 from "./001-workspaces.ts";
import m002 from "./002-topics.ts";
import m003 from "./003-topic-anchors.ts";
import m004 from "./004-proposals-relations.ts";
import m005 from "./005-shares.ts";
import m006 from "./006-code-index.ts";
import m007 from "./007-retrieval-deliveries.ts";
import m008 from "./008-topic-read-paths.ts";
import m009 from "./009-collections.ts";
import m010 from "./010-credits.ts";
import m011 from "./011-radar.ts";
import m012 from "./012-jobs.ts";
import m013 from "./013-identity.ts";
import m015 from "./015-plan-limits.ts";
import m016 from "./016-mail.ts";
import m017 from "./017-billing-accounts.ts";
import m018 from "./018-billing-offers.ts";
import m019 from "./019-support.ts";
import m020 from "./020-topic-head-terms.ts";
import m021 from "./021-topic-tag-lists.ts";
import m022 from "./022-anchor-versions.ts";
import m023 from "./023-record-rollups.ts";
import m024 from "./024-resolution-within-hold.ts";
import m025 from "./025-webhook-inbox.ts";
import m026 from "./026-billing-schedules.ts";
import m028 from "./028-record-numbers.ts";
import m030 from "./030-topic-versions.ts";
import m031 from "./031-unlock-leases.ts";
import m032 from "./032-references-relation.ts";
import m033 from "./033-imported-credit-entries.ts";
import m035 from "./035-radar-keys-in-code-order.ts";

export interface Migration {
  /** Applied in ascending order; never renumber or edit one that has shipped: add the next. */
  version: number;
  name: string;
  /** One script, run in the migrating transaction. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m028,
  m030,
  m031,
  m032,
  m033,
  m035,
];
