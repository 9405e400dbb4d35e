import { assertOwner, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";

/**
 * Who may move a workspace's content (issue #25). An export is a read of everything the
 * workspace holds, people's e-mails included: owners and admins, and a read-only OAuth token of
 * one passes (`work:read`). An import writes everything and may invite people: owners only, with
 * the write scope.
 */
export function assertCanExportWorkspace(p: Principal): void {
  if (!isOwnerOrAdmin(p)) throw forbidden("Cannot export the workspace: owner or admin authority is required");
}

export function assertCanImportWorkspace(p: Principal): void {
  assertOwner(p, "import into the workspace");
}
