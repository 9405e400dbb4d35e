import type { KeyHasher } from "../core/access/ports.ts";

/** Bun's native one-shot SHA-256: the same digest as core's Web Crypto default, ~15× faster and synchronous. */
export const bunKeyHasher: KeyHasher = (raw) => Bun.CryptoHasher.hash("sha256", raw, "hex");
