/**
 * Moving stored objects between stores (issue #25, ADR 067): each module's store bundle names its
 * kinds and, on every adapter, reads them out as plain JSON documents and writes them back as they
 * are. `npm run store:copy` moves a whole store with them; the workspace export reads one
 * workspace's kinds through them; the workspace import writes through them.
 *
 * The rules every kind keeps, on every adapter (tests/contract/transfer-stores.contract.ts holds
 * them):
 * - A document is JSON only: strings, finite numbers, booleans, null, arrays, plain objects.
 *   Timestamps are ISO 8601 UTC strings with milliseconds (`2026-11-29T04:15:00.000Z`). It is the
 *   module's stored type as its store port returns it (`Topic`, `ApiKeyRecord`, …) plus what the
 *   store keeps beyond that type (a key's hash, a sealed secret, a sequence number), and never
 *   what a store derives (search text, tag lists, rollups, head terms, counters kept beside the
 *   object): a write derives those as the store's own insert would.
 * - The same objects read from any adapter are the same documents (`transferDocDigest` equal), so
 *   a copy between backends can be verified.
 * - `read` streams in the kind's key order, a bounded page at a time: memory stays flat.
 * - `write` takes documents exactly as `read` gave them (ids, sequence numbers, hashes, sealed
 *   secrets kept) and leaves alone a document whose key the store holds already: writing the same
 *   page twice (a resumed copy) changes nothing. It returns how many it added.
 */

/** A JSON value, as a transfer document holds them. */
export type TransferValue = string | number | boolean | null | TransferValue[] | { [field: string]: TransferValue };
/** One stored object as it moves. */
export type TransferDoc = { [field: string]: TransferValue };

/** Which objects a read or count covers: every object of the kind, or one workspace's. */
export interface TransferScope {
  /** Only this workspace's objects (a kind that is not `tenant` has none: it reads nothing). */
  workspaceId?: string;
}

export interface TransferKind {
  /** `<module>.<kind>`, unique in a store (`topics.topics`, `access.api_keys`). */
  readonly name: string;
  /** Whether its objects belong to a workspace (they have `workspace_id`). */
  readonly tenant: boolean;
  /** The fields that identify an object of the kind (unique in a store, or per workspace when tenant). */
  readonly key: readonly string[];
  /** Every object of the scope, in key order, read a bounded page at a time. */
  read(scope?: TransferScope): AsyncIterable<TransferDoc>;
  /**
   * Writes documents as they were read from another store. A document whose key the store holds
   * already is left as it is. At most `TRANSFER_WRITE_BATCH` documents per call. Returns how many
   * were added.
   */
  write(docs: readonly TransferDoc[]): Promise<number>;
  count(scope?: TransferScope): Promise<number>;
}

/** The most documents one `write` takes; callers batch. */
export const TRANSFER_WRITE_BATCH = 500;

/**
 * Every kind of a store, in write order: a kind comes after the kinds its documents reference
 * (the bundles' order in the adapter's mod.ts, then each bundle's own order).
 */
export interface StoreTransfer {
  readonly kinds: readonly TransferKind[];
}

/** The kinds of several bundles, in their order; a name twice is a programming error. */
export function composeTransfer(parts: readonly (readonly TransferKind[] | undefined)[]): StoreTransfer {
  const kinds = parts.flatMap((p) => p ?? []);
  const seen = new Set<string>();
  for (const k of kinds) {
    if (seen.has(k.name)) throw new Error(`transfer kind ${k.name} is declared twice`);
    seen.add(k.name);
  }
  return { kinds };
}

/**
 * A document as canonical JSON text: object fields sorted by name, and fields whose value is null
 * left out (so "absent" and "null" read alike whichever a backend keeps). What the digest hashes.
 */
export function canonicalTransferJson(value: TransferValue | undefined): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonicalTransferJson).join(",")}]`;
  if (typeof value === "object") {
    const fields = Object.keys(value).filter((k) => value[k] !== null && value[k] !== undefined).sort();
    return `{${fields.map((k) => `${JSON.stringify(k)}:${canonicalTransferJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const MOD = 1n << 256n;

/**
 * The digest of a set of documents, whatever order they are read in: the sum, modulo 2^256, of
 * each document's SHA-256 over its canonical JSON. Order-free, so two backends that order a key
 * differently (collations) still agree; a multiset sum, so a document twice counts twice.
 */
export class TransferDigest {
  private sum = 0n;
  private n = 0;
  private readonly encoder = new TextEncoder();

  async add(doc: TransferDoc): Promise<void> {
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", this.encoder.encode(canonicalTransferJson(doc))));
    let v = 0n;
    for (const b of hash) v = (v << 8n) | BigInt(b);
    this.sum = (this.sum + v) % MOD;
    this.n++;
  }

  get count(): number {
    return this.n;
  }

  /** Lowercase hex, 64 characters. */
  hex(): string {
    return this.sum.toString(16).padStart(64, "0");
  }
}

/** The count and digest of every document of a kind's scope. */
export async function transferKindDigest(kind: TransferKind, scope?: TransferScope): Promise<{ count: number; sha256: string }> {
  const digest = new TransferDigest();
  for await (const doc of kind.read(scope)) await digest.add(doc);
  return { count: digest.count, sha256: digest.hex() };
}
