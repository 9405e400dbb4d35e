import { type ClassifiedAddress, classifyBytes, describeAddressClass } from "./address-class.ts";
import { parseIp } from "./ip-address.ts";
import type { HostResolver } from "./ports.ts";

/**
 * The verdict on a host a tenant asked this server to connect to. `ok`: every address it
 * resolves to is public; connect to one of `addresses` (pin the connection to them: resolving
 * again could answer differently, which is how DNS rebinding gets past a check).
 */
export type HostVerdict =
  | { ok: true; host: string; literal: boolean; addresses: string[] }
  | { ok: false; refusal: "invalid_host" | "unresolved"; message: string }
  | { ok: false; refusal: "not_public"; message: string; address: ClassifiedAddress };

/** One DNS label: letters, digits, `-` inside, `_` (some service names use it). */
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
/** A last label that a resolver would read as a number (`1`, `0x7f`), so the host is an IPv4 literal or nothing. */
const NUMERIC = /^(?:[0-9]+|0x[0-9a-f]*)$/;

/**
 * Whether `host` (a DNS name, an IP literal in any form a client accepts, an IPv6 literal with or
 * without brackets) is a public destination, resolved with `resolver`. A literal is judged as it
 * is; a name by every address it resolves to (one non-public address refuses it: a client may
 * pick any of them). Names are compared in lower case; a trailing dot, an empty label or a
 * number-like last label that is no IPv4 literal is refused as invalid.
 */
export async function checkOutboundHost(host: string, resolver: HostResolver): Promise<HostVerdict> {
  const text = host.toLowerCase();
  const bytes = parseIp(text);
  if (bytes) {
    const classified = classifyBytes(bytes);
    if (classified.class !== "public") return refused(host, classified, true);
    return { ok: true, host: text, literal: true, addresses: [classified.address] };
  }
  const labels = text.split(".");
  if (text.length > 253 || !labels.every((l) => LABEL.test(l)) || NUMERIC.test(labels.at(-1)!)) {
    return { ok: false, refusal: "invalid_host", message: `Invalid host ${JSON.stringify(host)}: expected a DNS name or an IP address` };
  }
  let answers: string[];
  try {
    answers = await resolver.resolve(text);
  } catch {
    answers = [];
  }
  if (answers.length === 0) return { ok: false, refusal: "unresolved", message: `${text} does not resolve` };
  const addresses: string[] = [];
  for (const answer of answers) {
    const b = parseIp(answer);
    if (!b) return { ok: false, refusal: "unresolved", message: `${text} resolves to ${JSON.stringify(answer)}, which is no address` };
    const classified = classifyBytes(b);
    if (classified.class !== "public") return refused(text, classified, false);
    if (!addresses.includes(classified.address)) addresses.push(classified.address);
  }
  return { ok: true, host: text, literal: false, addresses };
}

function refused(host: string, a: ClassifiedAddress, literal: boolean): HostVerdict {
  const what = `${describeAddressClass(a.class)}${a.embedded ? ` (it carries the IPv4 address ${a.embedded})` : ""}`;
  const message = literal ? `${host} is ${what}` : `${host} resolves to ${a.address}, ${what}`;
  return { ok: false, refusal: "not_public", message, address: a };
}
