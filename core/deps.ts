import type { SecretBox } from "./access/mod.ts";
import type { BillingProvider, PaymentFailedHook } from "./billing/mod.ts";
import type { OfferIssuedHook } from "./offers/mod.ts";
import type { EventBus } from "./events/mod.ts";
import type { CapacityGate } from "./kernel/capacity.ts";
import type { Clock } from "./kernel/clock.ts";
import type { JobQueue } from "./jobs/mod.ts";
import type { CodeHost, PathMatcher } from "./code-context/mod.ts";
import type { PriceTable } from "./contacts/mod.ts";
import type { ProspectDirectory } from "./radar/mod.ts";
import type { Stores } from "./stores.ts";
import type { AnchorReports } from "./topics/mod.ts";
import type { MemberAddedHook, RepoLinkedHook } from "./workspaces/mod.ts";
import type { MailSettings } from "./mail/mod.ts";
import type { NoteSharedHook } from "./sharing/mod.ts";

/**
 * What every use case is given: the stores, the clock, and the box that seals secrets. `S` is the
 * part of the stores a use case may touch: each module types its use cases with its own bundle and
 * the bundles it reads (e.g. `CoreDeps<TopicStores & WorkspaceStores>`, ADR 019), so tsc refuses a
 * use case that reaches into a store it did not declare. A host passes its whole `CoreDeps`.
 */
export interface CoreDeps<S = Stores> {
  stores: S;
  clock: Clock;
  secretBox: SecretBox;
  /** Where use cases publish workspace events (the live stream); none means they are not published. */
  events?: EventBus;
  /** Reads linked repos' files (adapters/git/); without it, repos get no file index. */
  codeHost?: CodeHost;
  /** Where radar finds companies and people (the sample directory or PDL); without it, radar finds none. */
  prospects?: ProspectDirectory;
  /** What radar charges (RADAR_PRICES); default `DEFAULT_PRICES`. */
  radarPrices?: PriceTable;
  /** How long a worker owns a radar run before another may take it over; default 30 s. */
  radarRunLeaseMs?: number;
  /**
   * How long a contact unlock's request owns its hold and claims before the sweep takes it for
   * dead and resolves them (docs/decisions/055-unlock-hold-sweep.md); default 60 s.
   */
  radarUnlockLeaseMs?: number;
  /** The glob matcher of anchors (adapters/glob/); match-files and drift fail without it. */
  paths?: PathMatcher;
  /** Where use cases queue background work (run by workers/); without it, that work runs inline. */
  jobs?: JobQueue;
  /**
   * Code context's part in topic answers (`codeContextHooks`); without it, topics carry no
   * `anchor_validation` and an empty `orphaned_anchors`.
   */
  anchorReports?: AnchorReports;
  /**
   * The gate every create of a limited kind passes (members, topics, collections, records):
   * billing's `planLimitsGate`, which counts usage and, under `PLAN_LIMITS=enforce`, refuses
   * creates past the plan's limits. Without it nothing is counted or refused.
   */
  capacity?: CapacityGate;
  /** The payment provider (Stripe); absent: self-hosted, nothing charged, owners switch plans freely. */
  billingProvider?: BillingProvider;
  /** What follows linking a repo (`codeContextHooks`: its first file index); without it, nothing. */
  onRepoLinked?: RepoLinkedHook;
  /** How mail is sent (mailer, PUBLIC_URL, the secret of unsubscribe tokens); without it, no mail. */
  mail?: MailSettings;
  /** What follows adding a member (`mailHooks`: the "member added" mail); without it, nothing. */
  onMemberAdded?: MemberAddedHook;
  /** What follows issuing a billing offer (`mailHooks`: a mail to the workspace's owners, list `billing`); without it, nothing. */
  onOfferIssued?: OfferIssuedHook;
  /** What follows sharing a note with members (`mailHooks`: "note shared with you" mail); without it, nothing. */
  onNoteShared?: NoteSharedHook;
  /** What follows a failed payment (`mailHooks`: the payment-failed notice to the owners); without it, nothing. */
  onPaymentFailed?: PaymentFailedHook;
}
