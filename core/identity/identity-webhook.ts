import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { CoreDeps } from "../kernel/deps.ts";
import { conflict, validationFailed } from "../kernel/errors.ts";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import type { AccessStores } from "../access/mod.ts";
import { deliverOnce, readSignedEvent, type SignedBy, type WebhookHandler, type WebhookStores } from "../webhooks/mod.ts";
import type { IdentityDeps } from "./ports.ts";
import { deactivateIdentity } from "./identity-links.ts";
import type { IdentityLink } from "./model.ts";
import { invalidateSessionsOf } from "./sessions.ts";

/**
 * The identity provider's webhook (Standard Webhooks, docs/decisions/030-sessions-oidc-identity-webhook.md):
 * `user.updated` (e-mail, name), `user.deleted` (the identity is deactivated: its sessions, OAuth
 * grants and personal API keys stop at once; memberships stay), `session.revoked` (the person's
 * sessions end). The person is the one linked to the provider's subject (`data.id`, or
 * `data.user_id`); not linked yet, the one with `data.previous_email` or `data.email`, who is linked
 * then. The delivery goes through the webhook inbox (ADR 042): recorded with its body under its
 * webhook id, applied, marked; a redelivery of an applied one is `duplicate`, nothing done; one
 * left unfinished is applied again (every effect is idempotent). Ordering: a user event older
 * (`timestamp`) than the last one applied to the person changes nothing (`stale`); `user.deleted`
 * is final and always applies.
 */
export const IDENTITY_WEBHOOK_SOURCE = "identity";
export const IDENTITY_EVENT_TYPES = ["user.updated", "user.deleted", "session.revoked"] as const;

export interface IdentityDelivery {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
  body: Uint8Array;
}

export const IdentityWebhookResult = Type.Object({
  status: Type.Union([Type.Literal("applied"), Type.Literal("duplicate"), Type.Literal("ignored"), Type.Literal("stale")], {
    description:
      "`applied`; `duplicate` (this webhook id was received before and is applied, or being applied: nothing done); `ignored` (another type, or a person unknown here); `stale` (a `user.updated` whose `timestamp` is older than the last event applied to the person: nothing changed).",
  }),
  type: Type.String({ description: "The event's type." }),
});
export type IdentityWebhookResult = Static<typeof IdentityWebhookResult>;

const Email = Type.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+$" });
const UserData = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  email: Type.Optional(Email),
  previous_email: Type.Optional(Email),
  name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
});
const SessionData = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 255 }) });
const Envelope = Type.Object({ type: Type.String({ maxLength: 200 }), timestamp: Type.Optional(Type.String()), data: Type.Object({}) });
const IdentityEvent = { schema: Envelope, what: "identity event: expected {type, timestamp, data}" };
const SIGNED_BY: SignedBy = { scheme: "standard-webhooks", setting: "IDENTITY_WEBHOOK_SECRET" };

type WebhookDeps = IdentityDeps & CoreDeps<WebhookStores & Pick<AccessStores, "apiKeys">>;

function parse<T extends Parameters<typeof Value.Check>[0]>(schema: T, value: unknown, what: string): Static<T> {
  if (!Value.Check(schema, value)) {
    throw validationFailed(`Invalid ${what}`, schemaErrorDetails(Value.Errors(schema, value), { limit: 1 }));
  }
  return value as Static<T>;
}

export async function receiveIdentityWebhook(
  deps: WebhookDeps,
  secret: string,
  issuer: string,
  d: IdentityDelivery,
): Promise<IdentityWebhookResult> {
  const event = readSignedEvent(SIGNED_BY, secret, { ...d, receivedAt: deps.clock.now() }, IdentityEvent);
  const type = event.type;
  if (!(IDENTITY_EVENT_TYPES as readonly string[]).includes(type)) return { status: "ignored", type };
  const data = type === "session.revoked" ? parse(SessionData, event.data, `${type} event`) : parse(UserData, event.data, `${type} event`);

  const eventAt = eventTime(event.timestamp);
  const recorded: Recorded = { issuer, type, event_at: eventAt, data };
  const result = await deliverOnce(deps, IDENTITY_WEBHOOK_SOURCE, d.id!, JSON.stringify(recorded), (p) => applyRecorded(deps, p), (s) => s);
  return { status: result, type };
}

/** What the inbox keeps of a delivery: enough to apply it again (the issuer as configured when it came). */
interface Recorded {
  issuer: string;
  type: string;
  /** The event's `timestamp` (ISO 8601 UTC); null: it has none, it is not ordered. */
  event_at: string | null;
  data: Static<typeof UserData> | Static<typeof SessionData>;
}

/** The event's `timestamp` as an instant; absent: null; not a date-time: 400. */
function eventTime(timestamp: string | undefined): string | null {
  if (timestamp === undefined) return null;
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) {
    throw validationFailed("Invalid identity event: timestamp is not an ISO 8601 date-time", [{
      path: "/timestamp",
      message: "expected a date-time",
    }]);
  }
  return new Date(t).toISOString();
}

async function applyRecorded(deps: WebhookDeps, payload: string): Promise<"applied" | "ignored" | "stale"> {
  const r = JSON.parse(payload) as Recorded;
  if ("user_id" in r.data) return (await revokeSessions(deps, r.issuer, r.data.user_id)) ? "applied" : "ignored";
  return applyUserEvent(deps, r.issuer, r.type, r.data, r.event_at);
}

/** The recovery sweep's way in (ADR 042). */
export const identityWebhookHandler: WebhookHandler<WebhookDeps> = {
  source: IDENTITY_WEBHOOK_SOURCE,
  apply: (deps, payload) => applyRecorded(deps, payload),
};

/** The link of the provider's subject; not linked yet, the person of `previous_email` or `email`, linked now. Null: nobody here. */
async function linkOf(deps: WebhookDeps, issuer: string, data: Static<typeof UserData>): Promise<IdentityLink | null> {
  const known = await deps.stores.identityLinks.get(issuer, data.id);
  if (known) return known;
  let person = data.previous_email ? await deps.stores.identities.getByEmail(data.previous_email) : null;
  person ??= data.email ? await deps.stores.identities.getByEmail(data.email) : null;
  if (!person) return null;
  const link: IdentityLink = {
    issuer,
    subject: data.id,
    identity_id: person.id,
    email: person.email,
    created_at: deps.clock.now().toISOString(),
    deactivated_at: null,
  };
  if ((await deps.stores.identityLinks.insert(link)) === "ok") return link;
  // Linked meanwhile (the same account: use it), or the person is another account's of this provider (not ours to touch).
  return deps.stores.identityLinks.get(issuer, data.id);
}

async function applyUserEvent(
  deps: WebhookDeps,
  issuer: string,
  type: string,
  data: Static<typeof UserData>,
  eventAt: string | null,
): Promise<"applied" | "ignored" | "stale"> {
  const link = await linkOf(deps, issuer, data);
  if (!link) return "ignored";
  const ordered = eventAt === null ? {} : { eventAt };
  if (type === "user.updated") {
    const changes: { email?: string; name?: string | null } = {};
    if (data.email !== undefined) changes.email = data.email;
    if (data.name !== undefined) changes.name = data.name;
    // The change and the event's time in one write: a later event applied first makes this one stale.
    const updated = await deps.stores.identities.update(link.identity_id, changes, ordered);
    if (updated === "email_taken") throw conflict("Cannot apply user.updated: another person here has this e-mail address");
    if (updated === "stale") return "stale";
    return updated !== null ? "applied" : "ignored";
  }
  // user.deleted is final, whatever came before it: the link signs in no more, sessions and grants
  // end (identity-links.ts), and the person's own API keys in every workspace are revoked (each
  // revocation bites at once). Its time is kept, so an older user.updated arriving later is stale.
  if (eventAt !== null) await deps.stores.identities.update(link.identity_id, {}, ordered);
  await deactivateIdentity(deps, issuer, link.subject);
  await revokePersonalKeys(deps, link.identity_id);
  return "applied";
}

async function revokePersonalKeys(deps: WebhookDeps, identityId: string): Promise<void> {
  const memberships = await deps.stores.identities.memberships(identityId, 10_000);
  for (const { workspace } of memberships) {
    for (;;) {
      const page = await deps.stores.apiKeys.list(workspace.id, { limit: 100, offset: 0 }, identityId);
      let revoked = 0;
      for (const key of page.items) if (await deps.stores.apiKeys.revoke(workspace.id, key.id)) revoked++;
      if (revoked === 0) break;
    }
  }
}

async function revokeSessions(deps: WebhookDeps, issuer: string, subject: string): Promise<boolean> {
  const link = await deps.stores.identityLinks.get(issuer, subject);
  if (!link) return false;
  await invalidateSessionsOf(deps, link.identity_id);
  return true;
}
