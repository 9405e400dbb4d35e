import type { WorkspaceDeps } from "./ports.ts";
import { validationFailed } from "../kernel/errors.ts";
import type { Workspace } from "./model.ts";

/** Area and repo references must name objects of this workspace (else 400, never a leak). */
export async function checkRefs(
  deps: WorkspaceDeps,
  ws: Workspace,
  refs: { area_id?: string | null; repo_id?: string | null },
): Promise<void> {
  if (refs.area_id && !(await deps.stores.areas.get(ws.id, refs.area_id))) {
    throw validationFailed("Invalid area_id: no such area in this workspace", [{ path: "/area_id", message: "no such area" }]);
  }
  if (refs.repo_id && !(await deps.stores.repos.get(ws.id, refs.repo_id))) {
    throw validationFailed("Invalid repo_id: no such repo in this workspace", [{ path: "/repo_id", message: "no such repo" }]);
  }
}
