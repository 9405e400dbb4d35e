import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { CoreDeps } from "../deps.ts";
import { AppError, conflict, validationFailed } from "../kernel/errors.ts";
import { verifyStandardWebhook } from "../webhooks/mod.ts";
import { deactivateIdentity } from "./identity-links.ts";
import type { IdentityLink } from "./model.ts";
import { invalidateSessionsOf } from "./sessions.ts";

/**
 * The identity provider's webhook (Standard Webhooks, docs/decisions/030-sessions-oidc-identity-webhook.md):
 * `user.updated` (e-mail, name), `user.deleted` (the identity is deactivated: its sessions, OAuth
 * grants and personal API keys stop at once; memberships stay), `session.revoked` (the person's
 * sessions end). The person is the one linked to the provider's subject (`data.id`, or
 * `data.user_id`); not linked yet, the one with `data.previous_email` or `data.email`, who is linked
 * then. The delivery id is claimed before the effect and released if the effect fails, as every
 * receiver here does (a redelivery: `duplicate`, nothing done).
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
  status: Type.Union([Type.Literal("applied"), Type.Literal("duplicate"), Type.Literal("ignored")], {
    description: "`applied`; `duplicate` (this webhook id was seen: nothing done); `ignored` (another type, or a person unknown here).",
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

type WebhookDeps = CoreDeps;

function parse<T extends Parameters<typeof Value.Check>[0]>(schema: T, value: unknown, what: string): Static<T> {
  if (!Value.Check(schema, value)) {
    const e = Value.Errors(schema, value).First();
    throw validationFailed(`Invalid ${what}`, e ? [{ path: e.path || "/", message: e.message }] : []);
  }
  return value as Static<T>;
}

export async function receiveIdentityWebhook(
  deps: WebhookDeps,
  secret: string,
  issuer: string,
  d: IdentityDelivery,
): Promise<IdentityWebhookResult> {
  const now = deps.clock.now();
  if (!(await verifyStandardWebhook(secret, d, d.body, now))) {
    throw new AppError(
      "INVALID_SIGNATURE",
      "Invalid webhook signature: webhook-id, webhook-timestamp (within 300 s) and webhook-signature (v1, HMAC-SHA256 under IDENTITY_WEBHOOK_SECRET) are required",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(d.body));
  } catch {
    throw validationFailed("Invalid webhook body: it is not JSON");
  }
  const event = parse(Envelope, json, "identity event: expected {type, timestamp, data}");
  const type = event.type;
  if (!(IDENTITY_EVENT_TYPES as readonly string[]).includes(type)) return { status: "ignored", type };
  const data = type === "session.revoked" ? parse(SessionData, event.data, `${type} event`) : parse(UserData, event.data, `${type} event`);

  const store = deps.stores.webhookDeliveries;
  if (!(await store.claim(IDENTITY_WEBHOOK_SOURCE, d.id!, now.toISOString()))) return { status: "duplicate", type };
  try {
    const applied = "user_id" in data ? await revokeSessions(deps, issuer, data.user_id) : await applyUserEvent(deps, issuer, type, data);
    return { status: applied ? "applied" : "ignored", type };
  } catch (e) {
    // Nothing kept of a delivery that failed: the provider's retry applies it.
    await store.release(IDENTITY_WEBHOOK_SOURCE, d.id!).catch(() => {});
    throw e;
  }
}

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

async function applyUserEvent(deps: WebhookDeps, issuer: string, type: string, data: Static<typeof UserData>): Promise<boolean> {
  const link = await linkOf(deps, issuer, data);
  if (!link) return false;
  if (type === "user.updated") {
    const changes: { email?: string; name?: string | null } = {};
    if (data.email !== undefined) changes.email = data.email;
    if (data.name !== undefined) changes.name = data.name;
    const updated = await deps.stores.identities.update(link.identity_id, changes);
    if (updated === "email_taken") throw conflict("Cannot apply user.updated: another person here has this e-mail address");
    return updated !== null;
  }
  // user.deleted: the link signs in no more, sessions and grants end (identity-links.ts), and the
  // person's own API keys in every workspace are revoked (each revocation bites at once).
  await deactivateIdentity(deps, issuer, link.subject);
  await revokePersonalKeys(deps, link.identity_id);
  return true;
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
