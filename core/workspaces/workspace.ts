import { type Principal } from "../access/mod.ts";
import { assertCanDeleteWorkspace, assertCanManageWorkspace } from "./policy.ts";
import type { WorkspaceDeps, WorkspaceStores } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { AppError } from "../kernel/errors.ts";
import type { StoreLifecycle, StoreStatus } from "../kernel/store-lifecycle.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { Identity, Member, Workspace, WorkspaceSettings } from "./model.ts";
import type { SetPlanDto, UpdateWorkspaceDto, WorkspaceCounts } from "./dto.ts";

export const DEFAULT_SETTINGS: WorkspaceSettings = { review_interval_days: 90 };

export async function updateWorkspace(
  deps: WorkspaceDeps,
  p: Principal,
  ws: Workspace,
  dto: UpdateWorkspaceDto,
): Promise<Workspace> {
  assertCanManageWorkspace(p, "update the workspace");
  const next: Workspace = {
    ...ws,
    name: dto.name ?? ws.name,
    settings: { ...ws.settings, ...dto.settings },
    updated_at: deps.clock.now().toISOString(),
  };
  await deps.stores.workspaces.update(next);
  await emit(deps, ws.id, "workspace.updated", p, { name: next.name, settings: next.settings });
  return next;
}

/**
 * An owner or admin switches between the self-serve plans (ADR 031). The current plan again
 * changes nothing (no event); `enterprise` is a contract: neither set nor left here (409
 * PLAN_CHANGE_NOT_ALLOWED). Without a billing provider (self-hosted, nothing charged) free, team
 * and business switch freely and include no credits; with one, every other change is 409
 * PLAN_CHANGE_NOT_ALLOWED (checkout or the portal change plans then).
 */
export async function setPlan(deps: WorkspaceDeps, p: Principal, ws: Workspace, dto: SetPlanDto): Promise<Workspace> {
  assertCanManageWorkspace(p, "set the plan");
  if (dto.plan === ws.plan) return ws;
  if (dto.plan === "enterprise" || ws.plan === "enterprise") {
    throw new AppError(
      "PLAN_CHANGE_NOT_ALLOWED",
      "Cannot change plan: enterprise is a contract, set and ended by the platform operator",
      [],
      {
        current_plan: ws.plan,
      },
    );
  }
  if (deps.billingProvider) {
    throw new AppError(
      "PLAN_CHANGE_NOT_ALLOWED",
      "Cannot change plan: a billing provider is configured, so plans change through checkout or the billing portal",
      [],
      { current_plan: ws.plan },
    );
  }
  // Without a provider nothing is charged, and a plan an owner sets includes no credits.
  const next: Workspace = { ...ws, plan: dto.plan, updated_at: deps.clock.now().toISOString() };
  await deps.stores.workspaces.update(next);
  await emit(deps, ws.id, "workspace.plan_changed", p, { from: ws.plan, to: next.plan, source: "owner" });
  return next;
}

/** Deleting a workspace destroys every team's data in it, so it takes an owner, not an admin. */
export async function deleteWorkspace(deps: WorkspaceDeps, p: Principal, ws: Workspace): Promise<void> {
  assertCanDeleteWorkspace(p);
  await deps.stores.workspaces.delete(ws.id);
  await emit(deps, ws.id, "workspace.deleted", p, { slug: ws.slug });
}

export interface WorkspaceHealth {
  workspace: { id: string; slug: string; plan: string };
  counts: WorkspaceCounts;
  store: StoreStatus;
}

/** Reads the store's status too: the one use case that needs the stores' lifecycle. */
export async function workspaceHealth(deps: CoreDeps<WorkspaceStores & StoreLifecycle>, ws: Workspace): Promise<WorkspaceHealth> {
  const [counts, store] = await Promise.all([deps.stores.workspaces.counts(ws.id), deps.stores.status()]);
  return { workspace: { id: ws.id, slug: ws.slug, plan: ws.plan }, counts, store };
}

export interface MeView {
  principal: { kind: Principal["kind"]; via: Principal["via"]; credential_id: string; client_id?: string; scopes?: string[] };
  identity: Identity | null;
  /** The credential's workspace; null over a session, which is a person's, not a workspace's. */
  workspace: Workspace | null;
  role: Member["role"] | null;
  memberships: Array<{ workspace: { id: string; slug: string; name: string }; role: Member["role"] }>;
}

/** The caller, the workspace its credential is scoped to, and the person's other memberships. */
export const MAX_MEMBERSHIPS_SHOWN = 100;

export async function me(deps: WorkspaceDeps, p: Principal, ws: Workspace | null): Promise<MeView> {
  const identity = p.identityId ? await deps.stores.identities.getById(p.identityId) : null;
  // An OAuth token is pinned to one workspace: it shows that membership only.
  const memberships = !identity
    ? []
    : p.via === "oauth" && p.role && ws
    ? [{ workspace: ws, member: { role: p.role } }]
    : await deps.stores.identities.memberships(identity.id, MAX_MEMBERSHIPS_SHOWN);
  const oauth = p.via === "oauth" && p.clientId ? { client_id: p.clientId, scopes: [...p.scopes] } : {};
  return {
    principal: { kind: p.kind, via: p.via, credential_id: p.credentialId, ...oauth },
    identity,
    workspace: ws,
    role: p.role,
    memberships: memberships.map((m) => ({
      workspace: { id: m.workspace.id, slug: m.workspace.slug, name: m.workspace.name },
      role: m.member.role,
    })),
  };
}
