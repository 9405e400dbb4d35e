import { TRANSFER_WRITE_BATCH, type TransferDoc, type TransferKind, transferKindDigest } from "../../core/kernel/mod.ts";
import type { Stores } from "../../core/mod.ts";
import type { Progress } from "./progress.ts";

export interface KindDigest {
  count: number;
  sha256: string;
}

/** Digests both sides agreed on while resuming, so the final check need not read them again. */
export type AgreedDigests = Map<string, KindDigest>;

/** The target's kind of the same name; the two stores must run the same version of the service. */
export function pairKinds(source: Stores, target: Stores): Array<[TransferKind, TransferKind]> {
  const names = (s: Stores) => s.transfer.kinds.map((k) => k.name);
  const missing = names(source).filter((n) => !names(target).includes(n));
  const extra = names(target).filter((n) => !names(source).includes(n));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `The two stores do not hold the same kinds (${
        [...missing.map((n) => `${n} only in the source`), ...extra.map((n) => `${n} only in the target`)].join(", ")
      }): run the same version of the service on both`,
    );
  }
  return source.transfer.kinds.map((k) => [k, target.transfer.kinds.find((t) => t.name === k.name)!]);
}

/** The target's kinds that hold anything (a target must be empty unless resuming). */
export async function kindsHolding(target: Stores): Promise<string[]> {
  const out: string[] = [];
  for (const k of target.transfer.kinds) if ((await k.count()) > 0) out.push(k.name);
  return out;
}

/**
 * Copies every kind in write order, `TRANSFER_WRITE_BATCH` documents per write. Writes leave a
 * document whose key the target holds alone, so reading a kind again after a crash is safe; on
 * `resume`, a kind whose count and digest already agree on both sides is skipped (the kinds
 * before the one a crash cut short), and the rest are copied again from their start.
 */
export async function copyKinds(source: Stores, target: Stores, opts: { resume: boolean }, progress: Progress): Promise<AgreedDigests> {
  const agreed: AgreedDigests = new Map();
  for (const [from, to] of pairKinds(source, target)) {
    const total = await from.count();
    if (opts.resume && (await to.count()) === total) {
      const [a, b] = await Promise.all([transferKindDigest(from), transferKindDigest(to)]);
      if (a.count === b.count && a.sha256 === b.sha256) {
        agreed.set(from.name, a);
        progress.start(from.name, total);
        progress.finish(from.name, total, 0, "already on the target");
        continue;
      }
    }
    progress.start(from.name, total);
    let done = 0;
    let added = 0;
    let batch: TransferDoc[] = [];
    for await (const doc of from.read()) {
      batch.push(doc);
      if (batch.length === TRANSFER_WRITE_BATCH) {
        added += await to.write(batch);
        done += batch.length;
        batch = [];
        progress.advance(from.name, done);
      }
    }
    if (batch.length > 0) {
      added += await to.write(batch);
      done += batch.length;
    }
    progress.finish(from.name, done, added);
  }
  return agreed;
}
