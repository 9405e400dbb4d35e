/**
 * IP address literals as the resolvers and HTTP clients a server uses read them, as bytes (4 for
 * IPv4, 16 for IPv6). IPv4 is read as `inet_aton` and the WHATWG URL parser read it: one to four
 * parts, each decimal, octal (leading `0`) or hex (`0x`), the last filling the remaining bytes, so
 * `2130706433`, `0x7f.1` and `017700000001` are all 127.0.0.1. A check that only knew the dotted
 * form would let those through to a client that connects to loopback.
 */

/** The bytes of an IPv4 literal in any form `inet_aton` accepts (one trailing dot allowed), else null. */
export function parseIpv4(text: string): Uint8Array | null {
  const parts = (text.endsWith(".") ? text.slice(0, -1) : text).split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const n = ipv4Number(part);
    if (n === null) return null;
    values.push(n);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  // The last part fills the bytes the others left: 2^32 for one part, 2^24 for two, ...
  if (last >= 2 ** (8 * (4 - values.length))) return null;
  const bytes = new Uint8Array(4);
  values.forEach((v, i) => (bytes[i] = v));
  for (let i = 3, rest = last; i >= values.length; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  return bytes;
}

/** One part of an IPv4 literal: `0x…` hex, `0…` octal, else decimal; null when it is none of those. */
function ipv4Number(part: string): number | null {
  let n: number;
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  else if (/^0[0-7]*$/.test(part)) n = part.length === 1 ? 0 : parseInt(part.slice(1), 8);
  else if (/^[1-9][0-9]*$/.test(part)) n = Number(part);
  else return null;
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The bytes of an IPv6 literal (brackets and a zone `%eth0` allowed; the last 32 bits may be
 * written as dotted IPv4), else null.
 */
export function parseIpv6(text: string): Uint8Array | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  let tail: Uint8Array | null = null;
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    const dotted = s.slice(lastColon + 1);
    // Only the plain dotted form is allowed inside IPv6 (RFC 4291 2.2).
    if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(dotted)) return null;
    tail = parseIpv4(dotted.split(".").map((p) => String(Number(p))).join("."));
    if (!tail || dotted.split(".").some((p) => Number(p) > 255)) return null;
    s = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const total = head.length + rest.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return null;
  const all = [...head, ...Array(8 - total).fill("0"), ...rest];
  const bytes = new Uint8Array(16);
  for (const [i, g] of all.entries()) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const v = parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  }
  if (tail) bytes.set(tail, 12);
  return bytes;
}

/** An IP literal of either family, else null. */
export function parseIp(text: string): Uint8Array | null {
  return parseIpv6(text) ?? parseIpv4(text);
}

/** The canonical text of an address: dotted IPv4, or RFC 5952 IPv6 (lower case, longest zero run as `::`). */
export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return Array.from(bytes).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!);
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(":");
  return `${hex.slice(0, best.at).join(":")}::${hex.slice(best.at + best.len).join(":")}`;
}
