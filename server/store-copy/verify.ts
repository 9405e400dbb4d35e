import { transferKindDigest } from "../../core/kernel/mod.ts";
import type { Stores } from "../../core/mod.ts";
import { type AgreedDigests, type KindDigest, pairKinds } from "./copy-kinds.ts";

export interface KindCheck {
  kind: string;
  source: KindDigest;
  target: KindDigest;
  same: boolean;
}

/** Counts and digests of every kind on both sides (core/kernel/store-transfer.ts `transferKindDigest`). */
export async function verifyKinds(source: Stores, target: Stores, agreed: AgreedDigests): Promise<KindCheck[]> {
  const out: KindCheck[] = [];
  for (const [from, to] of pairKinds(source, target)) {
    const known = agreed.get(from.name);
    const [a, b] = known ? [known, known] : await Promise.all([transferKindDigest(from), transferKindDigest(to)]);
    out.push({ kind: from.name, source: a, target: b, same: a.count === b.count && a.sha256 === b.sha256 });
  }
  return out;
}

/** The table the command prints: one line per kind, both digests in full where they differ. */
export function formatChecks(checks: readonly KindCheck[]): string {
  const w = Math.max(4, ...checks.map((c) => c.kind.length));
  const lines = [
    `${"kind".padEnd(w)}  ${"source".padStart(9)}  ${
      "target".padStart(9)
    }  sha256 (source)                                                   check`,
  ];
  for (const c of checks) {
    lines.push(
      `${c.kind.padEnd(w)}  ${String(c.source.count).padStart(9)}  ${String(c.target.count).padStart(9)}  ${c.source.sha256}  ${
        c.same ? "same" : "DIFFERENT"
      }`,
    );
    if (!c.same) lines.push(`${"".padEnd(w)}  ${"".padStart(9)}  ${"".padStart(9)}  ${c.target.sha256}  (target)`);
  }
  const bad = checks.filter((c) => !c.same).length;
  lines.push(
    bad === 0
      ? `verified: ${checks.length} kinds, counts and digests the same on both sides`
      : `DIFFERENT: ${bad} of ${checks.length} kinds differ`,
  );
  return lines.join("\n");
}
