import type { CoreDeps } from "../kernel/deps.ts";
import type { MemberAddedHook } from "../workspaces/mod.ts";
import type { NoteSharedHook } from "../sharing/mod.ts";
import type { OfferIssuedHook } from "../offers/mod.ts";
import type { PaymentFailedHook } from "../billing/mod.ts";
import { queueMail } from "./send-job.ts";
import type { MailDeps } from "./ports.ts";

/** A hook is given the host's whole deps (ADR 066); this names what mail reads of them. */
const host = (deps: CoreDeps<unknown>) => deps as MailDeps;

async function nameOf(deps: MailDeps, identityId: string | null): Promise<string | null> {
  if (!identityId) return null;
  const who = await deps.stores.identities.getById(identityId);
  return who ? (who.name ?? who.email) : null;
}

const onMemberAdded: MemberAddedHook = async (hostDeps, ws, actor, member) => {
  const deps = host(hostDeps);
  if (actor !== null && actor === member.identity_id) return;
  await queueMail(deps, ws.id, {
    ref: `member:${member.id}`,
    identity_id: member.identity_id,
    to: member.email,
    list: "membership",
    content: {
      template: "member_added",
      workspace_name: ws.name,
      workspace_slug: ws.slug,
      role: member.role,
      added_by: await nameOf(deps, actor),
    },
  });
};

const onNoteShared: NoteSharedHook = async (hostDeps, ws, actor, topic, shares) => {
  const deps = host(hostDeps);
  const sharedBy = await nameOf(deps, actor);
  for (const share of shares) {
    const member = await deps.stores.members.get(ws.id, share.recipient_member_id);
    if (!member || member.identity_id === actor) continue;
    await queueMail(deps, ws.id, {
      ref: `share:${share.id}`,
      identity_id: member.identity_id,
      to: member.email,
      list: "shared_notes",
      content: {
        template: "note_shared",
        workspace_name: ws.name,
        workspace_slug: ws.slug,
        topic_title: topic.title,
        topic_slug: topic.slug,
        shared_by: sharedBy,
        message: share.message,
      },
    });
  }
};

/** Pages of members read when looking for a workspace's owners. */
const MEMBER_PAGE = 200;

/** A new (or reissued) offer goes to every owner of the workspace, list `billing`. */
const onOfferIssued: OfferIssuedHook = async (hostDeps, ws, offer) => {
  const deps = host(hostDeps);
  for (let offset = 0;; offset += MEMBER_PAGE) {
    const page = await deps.stores.members.list(ws.id, { limit: MEMBER_PAGE, offset });
    for (const member of page.items) {
      if (member.role !== "owner") continue;
      await queueMail(deps, ws.id, {
        ref: `offer:${offer.id}`,
        identity_id: member.identity_id,
        to: member.email,
        list: "billing",
        content: {
          template: "offer_issued",
          workspace_name: ws.name,
          workspace_slug: ws.slug,
          offer_id: offer.id,
          plan: offer.plan,
          amount: offer.price.amount,
          currency: offer.price.currency,
          interval: offer.price.interval,
          term_months: offer.term_months,
          radar_credits: offer.radar_credits,
          expires_at: offer.expires_at,
          revision: offer.revision,
        },
      });
    }
    if (offset + page.items.length >= page.total || page.items.length === 0) return;
  }
};

/** The payment-failed notice to every owner (list `billing`; an owner who left it gets none). */
const onPaymentFailed: PaymentFailedHook = async (hostDeps, ws, eventId) => {
  const deps = host(hostDeps);
  for (let offset = 0;; offset += MEMBER_PAGE) {
    const page = await deps.stores.members.list(ws.id, { limit: MEMBER_PAGE, offset });
    for (const m of page.items) {
      if (m.role !== "owner") continue;
      await queueMail(deps, ws.id, {
        ref: `billing:${eventId}`,
        identity_id: m.identity_id,
        to: m.email,
        list: "billing",
        content: { template: "payment_failed", workspace_name: ws.name, workspace_slug: ws.slug, plan: ws.plan },
      });
    }
    if (page.items.length === 0 || offset + page.items.length >= page.total) return;
  }
};

/**
 * Mail's part in other modules' use cases, through the ports they declare (workspaces'
 * `MemberAddedHook`, sharing's `NoteSharedHook`, offers' `OfferIssuedHook`, billing's `PaymentFailedHook`): a host that gives core `mail` settings spreads
 * these into its deps too.
 */
export const mailHooks = { onMemberAdded, onNoteShared, onOfferIssued, onPaymentFailed } satisfies {
  onMemberAdded: MemberAddedHook;
  onNoteShared: NoteSharedHook;
  onOfferIssued: OfferIssuedHook;
  onPaymentFailed: PaymentFailedHook;
};
