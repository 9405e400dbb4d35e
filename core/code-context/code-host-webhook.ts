import { type Static, Type } from "@sinclair/typebox";
import type { CodeContextDeps } from "./ports.ts";
import { validationFailed } from "../kernel/errors.ts";
import { markDriftIn } from "./mark-drift.ts";
import { requestRepoIndex } from "./repo-index.ts";
import { ANY_JSON_EVENT, deliverOnce, readSignedEvent, type SignedBy, type WebhookHandler } from "../webhooks/mod.ts";
import { CodeHostWebhookResult } from "./dto.ts";

/**
 * The code-host webhook (`POST /webhooks/code-host`): GitHub's format, which Gitea and Forgejo
 * send too. Signed with `X-Hub-Signature-256`; `X-GitHub-Event` names the event and
 * `X-GitHub-Delivery` the delivery, which takes effect once however often it is redelivered.
 */
export const CODE_HOST_SOURCE = "code-host";
/** Repos one push may concern (the same repository linked in several workspaces). */
export const MAX_REPOS_PER_PUSH = 100;
/** Changed paths taken from one push. */
export const MAX_PUSH_PATHS = 10_000;

export interface CodeHostDelivery {
  /** `X-GitHub-Event`: `push`, `ping`, ... */
  event: string | null;
  /** `X-GitHub-Delivery` */
  deliveryId: string | null;
  /** `X-Hub-Signature-256` */
  signature: string | null;
  contentType: string | null;
  /** The raw body, exactly as received: the signature covers these bytes. */
  body: Uint8Array;
}

const Paths = Type.Optional(Type.Array(Type.String()));
const PushPayload = Type.Object({
  ref: Type.String(),
  after: Type.Optional(Type.String()),
  deleted: Type.Optional(Type.Boolean()),
  repository: Type.Object({ full_name: Type.String({ minLength: 1, maxLength: 200 }) }),
  commits: Type.Optional(Type.Array(Type.Object({ added: Paths, modified: Paths, removed: Paths }))),
});
type PushPayload = Static<typeof PushPayload>;
const PushEvent = { schema: PushPayload, what: "push payload" };

const SIGNED_BY: SignedBy = { scheme: "hub-sha256", setting: "CODE_HOST_WEBHOOK_SECRET" };

/**
 * Verifies and applies one delivery. A bad or missing signature is UNAUTHENTICATED and nothing
 * happens. A push to a linked repo's default branch refreshes that repo's file index (a queued
 * job) and marks the topics anchored to the changed files drifted, with the pushed commit, in
 * every workspace that links the repository. The delivery goes through the webhook inbox (ADR
 * 042): recorded with the push, applied, marked; one left unfinished is applied again by its
 * redelivery or the recovery sweep (both effects are idempotent: the index job collapses, a topic
 * drifted at this commit stays so). A delivery without an id is applied as it comes.
 */
export async function receiveCodeHostWebhook(deps: CodeContextDeps, secret: string, d: CodeHostDelivery): Promise<CodeHostWebhookResult> {
  const event = d.event ?? "";
  const delivery = { ...d, receivedAt: deps.clock.now() };
  const answer = (outcome: CodeHostWebhookResult["outcome"], repos = 0, drifted = 0): CodeHostWebhookResult => ({
    received: true,
    event,
    outcome,
    repos,
    drifted,
  });
  if (event !== "push") {
    // Answered once signed; only a push's body is read further.
    readSignedEvent(SIGNED_BY, secret, delivery, ANY_JSON_EVENT);
    return answer(event === "ping" ? "pong" : "ignored");
  }
  const payload = readSignedEvent(SIGNED_BY, secret, delivery, PushEvent);
  if (d.deliveryId && d.deliveryId.length > 200) {
    throw validationFailed("Invalid delivery id: at most 200 characters", [{ path: "headers.x-github-delivery", message: "too long" }]);
  }

  const result = d.deliveryId
    ? await deliverOnce(
      deps,
      CODE_HOST_SOURCE,
      d.deliveryId,
      JSON.stringify(payload),
      (p) => applyPush(deps, JSON.parse(p)),
      () => "processed",
    )
    : await applyPush(deps, payload);
  return result === "duplicate" ? answer("duplicate") : answer("processed", result.repos, result.drifted);
}

/** The recovery sweep's way in (ADR 042). */
export const codeHostWebhookHandler: WebhookHandler<CodeContextDeps> = {
  source: CODE_HOST_SOURCE,
  apply: async (deps, payload) => {
    await applyPush(deps, JSON.parse(payload) as PushPayload);
    return "processed";
  },
};

async function applyPush(deps: CodeContextDeps, payload: PushPayload): Promise<{ repos: number; drifted: number }> {
  if (payload.deleted) return { repos: 0, drifted: 0 };
  const changed = new Set<string>();
  for (const c of payload.commits ?? []) {
    for (const p of [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]) {
      if (changed.size >= MAX_PUSH_PATHS) break;
      if (p !== "" && !p.startsWith("/")) changed.add(p);
    }
  }
  const commit = payload.after && !/^0+$/.test(payload.after) ? payload.after.slice(0, 200) : null;
  const linked = await deps.stores.repos.findByFullName(payload.repository.full_name, MAX_REPOS_PER_PUSH);
  let repos = 0;
  let drifted = 0;
  for (const repo of linked) {
    if (payload.ref !== `refs/heads/${repo.default_branch}`) continue;
    repos++;
    await requestRepoIndex(deps, repo);
    if (changed.size === 0) continue;
    const r = await markDriftIn(deps, null, repo.workspace_id, { paths: [...changed], commit, repoId: repo.id });
    drifted += r.count;
  }
  return { repos, drifted };
}
