import type { SecretBox } from "./ports.ts";

const enc = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * AES-256-GCM encryption under a key derived from the server secret (SHA-256 of the secret).
 * Output is base64 of `iv (12 bytes) || ciphertext+tag`. Web Crypto only, so it runs anywhere.
 */
export async function createSecretBox(secret: string): Promise<SecretBox> {
  if (secret.length < 32) throw new Error("Cannot create secret box: the secret must be at least 32 characters");
  const material = await crypto.subtle.digest("SHA-256", enc.encode(secret));
  const key = await crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
  return {
    async seal(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, enc.encode(plain)));
      const out = new Uint8Array(iv.length + ct.length);
      out.set(iv);
      out.set(ct, iv.length);
      return toBase64(out);
    },
    async open(sealed) {
      const bytes = fromBase64(sealed);
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, key, bytes.slice(12));
      return new TextDecoder().decode(plain);
    },
  };
}
