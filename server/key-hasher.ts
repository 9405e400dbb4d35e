import type { KeyHasher } from "../core/access/ports.ts";

/**
 * Bun's native one-shot SHA-256: the same digest as core's Web Crypto default, synchronous, and
 * run on every authenticated request. `Bun.SHA256.hash` takes ~130 ns against ~220 ns for
 * `Bun.CryptoHasher.hash("sha256", …)`, which looks the algorithm up by name each call (ADR 040).
 */
export const bunKeyHasher: KeyHasher = (raw) => Bun.SHA256.hash(raw, "hex");
