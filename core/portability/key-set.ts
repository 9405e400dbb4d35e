/**
 * The set of ids a reader keeps to check references as lines pass (every record id, when record
 * history references records). A JavaScript Set of 200,000 UUID strings holds ~20 MB; this one
 * packs a UUID into four 32-bit words of an open-addressing table (~10 MB at worst for the same,
 * half of it empty slots), and keeps any other key (a tag name, a slug) in a plain Set.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class KeySet {
  private words = new Uint32Array(4 * 1024);
  private used = new Uint8Array(1024);
  private count = 0;
  private readonly other = new Set<string>();

  get size(): number {
    return this.count + this.other.size;
  }

  has(key: string): boolean {
    const w = pack(key);
    if (!w) return this.other.has(key);
    return this.find(w) >= 0;
  }

  /** Adds `key`; false when it was there already. */
  add(key: string): boolean {
    const w = pack(key);
    if (!w) {
      if (this.other.has(key)) return false;
      this.other.add(key);
      return true;
    }
    if (this.find(w) >= 0) return false;
    if ((this.count + 1) * 2 > this.used.length) this.grow();
    this.insert(w);
    this.count++;
    return true;
  }

  private find(w: Uint32Array): number {
    const mask = this.used.length - 1;
    for (let i = hash(w) & mask;; i = (i + 1) & mask) {
      if (!this.used[i]) return -1;
      const o = i * 4;
      if (this.words[o] === w[0] && this.words[o + 1] === w[1] && this.words[o + 2] === w[2] && this.words[o + 3] === w[3]) return i;
    }
  }

  private insert(w: Uint32Array): void {
    const mask = this.used.length - 1;
    let i = hash(w) & mask;
    while (this.used[i]) i = (i + 1) & mask;
    this.used[i] = 1;
    this.words.set(w, i * 4);
  }

  private grow(): void {
    const { words, used } = this;
    this.words = new Uint32Array(words.length * 2);
    this.used = new Uint8Array(used.length * 2);
    for (let i = 0; i < used.length; i++) if (used[i]) this.insert(words.subarray(i * 4, i * 4 + 4));
  }
}

const scratch = new Uint32Array(4);

function pack(key: string): Uint32Array | null {
  if (key.length !== 36 || !UUID.test(key)) return null;
  const hex = key.replaceAll("-", "");
  for (let i = 0; i < 4; i++) scratch[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  return scratch;
}

/** Mixes all four words (a UUIDv7 starts with a timestamp: its first words vary little). */
function hash(w: Uint32Array): number {
  let h = Math.imul(w[0]! ^ Math.imul(w[1]!, 0x85ebca6b) ^ Math.imul(w[2]!, 0xc2b2ae35) ^ w[3]!, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
