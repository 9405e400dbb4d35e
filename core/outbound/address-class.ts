import { formatIp, parseIp } from "./ip-address.ts";

/**
 * What kind of network an address belongs to. Only `public` may be the target of a request a
 * tenant chose (a repo's clone URL, an outbound webhook): everything else is this server's own
 * machine, its private network or its cloud's (169.254.169.254 is the metadata service), or
 * nothing anyone should connect to. From the IANA special-purpose address registries.
 */
export const ADDRESS_CLASSES = [
  "public",
  "unspecified",
  "loopback",
  "private",
  "cgnat",
  "link_local",
  "unique_local",
  "multicast",
  "documentation",
  "benchmark",
  "reserved",
] as const;
export type AddressClass = (typeof ADDRESS_CLASSES)[number];

const DESCRIPTIONS: Record<AddressClass, string> = {
  public: "a public address",
  unspecified: "the unspecified address",
  loopback: "a loopback address",
  private: "a private address",
  cgnat: "a shared (carrier-grade NAT) address",
  link_local: "a link-local address",
  unique_local: "a unique-local address",
  multicast: "a multicast address",
  documentation: "a documentation address",
  benchmark: "a benchmarking address",
  reserved: "a reserved address",
};

/** `a private address`, `a loopback address`, ...: for messages. */
export const describeAddressClass = (c: AddressClass): string => DESCRIPTIONS[c];

/** A prefix as [address, length, class]; the first match wins, so narrower ones come first. */
type Prefix = readonly [string, number, AddressClass];

const IPV4: readonly Prefix[] = [
  ["0.0.0.0", 8, "unspecified"], // "this network": 0.0.0.0 reaches this host on Linux
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"], // the cloud metadata service lives here
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmark"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes 255.255.255.255, the broadcast address
];

const IPV6: readonly Prefix[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "reserved"], // IPv4-compatible (deprecated)
  ["64:ff9b:1::", 48, "reserved"], // local-use IPv4/IPv6 translation
  ["100::", 64, "reserved"], // discard-only
  ["2001:2::", 48, "benchmark"],
  ["2001:db8::", 32, "documentation"],
  ["2001::", 23, "reserved"], // IETF protocol assignments: Teredo, ORCHID, ...
  ["3fff::", 20, "documentation"],
  ["5f00::", 16, "reserved"], // segment routing SIDs
  ["fc00::", 7, "unique_local"],
  ["fe80::", 10, "link_local"],
  ["fec0::", 10, "reserved"], // site-local (deprecated)
  ["ff00::", 8, "multicast"],
];

/** IPv6 prefixes whose address carries an IPv4 one a gateway would reach: judged by that IPv4 address. */
const EMBEDDING: readonly (readonly [string, number, number])[] = [
  ["::ffff:0:0", 96, 12], // IPv4-mapped: the socket connects to the IPv4 address itself
  ["64:ff9b::", 96, 12], // NAT64 well-known prefix (RFC 6052)
  ["2002::", 16, 2], // 6to4: the IPv4 address of the tunnel's end
];

const parsed = <T extends readonly [string, number, ...unknown[]]>(list: readonly T[]) =>
  list.map((p) => ({ bytes: parseIp(p[0])!, len: p[1], entry: p }));
const IPV4_PREFIXES = parsed(IPV4);
const IPV6_PREFIXES = parsed(IPV6);
const EMBEDDING_PREFIXES = parsed(EMBEDDING);

function inPrefix(bytes: Uint8Array, prefix: Uint8Array, len: number): boolean {
  for (let bit = 0; bit < len; bit += 8) {
    const take = Math.min(8, len - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (prefix[bit / 8]! & mask)) return false;
  }
  return true;
}

export interface ClassifiedAddress {
  class: AddressClass;
  /** The canonical text of the address (`127.0.0.1`, `::ffff:a00:1`). */
  address: string;
  /** The IPv4 address an IPv6 one was judged by (IPv4-mapped, NAT64, 6to4). */
  embedded?: string;
}

/** The class of an address given as bytes (4 or 16). */
export function classifyBytes(bytes: Uint8Array): ClassifiedAddress {
  const address = formatIp(bytes);
  if (bytes.length === 4) {
    const hit = IPV4_PREFIXES.find((p) => inPrefix(bytes, p.bytes, p.len));
    return { class: hit ? hit.entry[2] : "public", address };
  }
  const embedding = EMBEDDING_PREFIXES.find((p) => inPrefix(bytes, p.bytes, p.len));
  if (embedding) {
    const v4 = bytes.slice(embedding.entry[2], embedding.entry[2] + 4);
    return { class: classifyBytes(v4).class, address, embedded: formatIp(v4) };
  }
  const hit = IPV6_PREFIXES.find((p) => inPrefix(bytes, p.bytes, p.len));
  if (hit) return { class: hit.entry[2], address };
  // Only 2000::/3 is allocated as global unicast; the rest is not yet anyone's.
  return { class: (bytes[0]! & 0xe0) === 0x20 ? "public" : "reserved", address };
}

/** The class of an address literal in any form (see ip-address.ts); null when `text` is no address. */
export function classifyAddress(text: string): ClassifiedAddress | null {
  const bytes = parseIp(text);
  return bytes ? classifyBytes(bytes) : null;
}
