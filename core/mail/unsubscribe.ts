import { validationFailed } from "../kernel/errors.ts";
import type { MailList } from "./model.ts";
import type { MailDeps } from "./ports.ts";
import { readUnsubscribeToken } from "./unsubscribe-token.ts";

/** What an unsubscribe token names; a missing, malformed or forged one is VALIDATION_FAILED. */
export async function checkUnsubscribeToken(secret: string, token: string | undefined): Promise<{ identity_id: string; list: MailList }> {
  const named = token ? readUnsubscribeToken(secret, token) : null;
  if (!named) {
    throw validationFailed("Invalid unsubscribe token: missing, malformed or not ours", [{
      path: "query.token",
      message: "invalid token",
    }]);
  }
  return named;
}

/** Leaves the list a token names; idempotent (`already` when it was left before). */
export async function unsubscribe(
  deps: MailDeps,
  secret: string,
  token: string | undefined,
): Promise<{ list: MailList; already: boolean }> {
  const { identity_id, list } = await checkUnsubscribeToken(secret, token);
  const added = await deps.stores.unsubscribes.add(identity_id, list, deps.clock.now().toISOString());
  return { list, already: !added };
}
