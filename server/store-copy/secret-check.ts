import { ACCESS_TRANSFER_KINDS, createSecretBox, hashRawKey } from "../../core/access/mod.ts";
import type { Stores } from "../../core/mod.ts";
import { EXIT, Refusal } from "./exit-codes.ts";

/** How many of the source's keys are opened: enough to tell a wrong secret, cheap on a big store. */
const SAMPLE = 20;

/**
 * Checks that `secret` opens the source's sealed API keys (core/access/secret-box.ts): the first
 * keys are opened and their raw value hashed back to the stored hash. Keys move sealed, so a
 * server on the target with another SECRET_KEY could authenticate them (by hash) but never
 * re-hash them; the copy refuses rather than move keys no one can open. Returns how many were checked.
 */
export async function checkSourceSecret(source: Stores, secret: string | null): Promise<number> {
  const kind = source.transfer.kinds.find((k) => k.name === ACCESS_TRANSFER_KINDS.apiKeys.name);
  if (!kind) return 0;
  let checked = 0;
  const box = secret ? await createSecretBox(secret) : null;
  for await (const doc of kind.read()) {
    if (!box) {
      throw new Refusal(
        EXIT.secret,
        "SECRET_KEY is not set, and the source holds API keys sealed with one: set SECRET_KEY to the source server's",
      );
    }
    let plain: string | null = null;
    try {
      plain = await box.open(String(doc.key_ciphertext));
    } catch {
      plain = null;
    }
    if (plain === null || hashRawKey(plain) !== doc.key_hash) {
      throw new Refusal(
        EXIT.secret,
        `SECRET_KEY does not open the source's API keys (key ${doc.prefix} of workspace ${doc.workspace_id}): use the SECRET_KEY the source server runs with`,
      );
    }
    if (++checked >= SAMPLE) break;
  }
  return checked;
}
