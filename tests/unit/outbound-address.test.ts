import { describe, expect, test } from "bun:test";
import { type AddressClass, classifyAddress } from "../../core/outbound/address-class.ts";
import { formatIp, parseIp, parseIpv4 } from "../../core/outbound/ip-address.ts";
import { checkOutboundHost } from "../../core/outbound/outbound-host.ts";
import type { HostResolver } from "../../core/outbound/ports.ts";

/**
 * The outbound address rule (core/outbound/, docs/decisions/052-server-paths-and-outbound-addresses.md):
 * pure functions over an injected resolver, so every class is tested without sending anything
 * anywhere. No name here is looked up in real DNS.
 */

/** A resolver that answers from a table and records what it was asked. */
function table(entries: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve(host) {
      asked.push(host);
      const answer = entries[host];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`NXDOMAIN ${host}`));
    },
  };
}

const cls = (text: string) => classifyAddress(text)?.class;

describe("parseIp()", () => {
  test("parseIpv4() reads every form inet_aton reads: decimal, octal, hex, one to four parts", () => {
    const v4 = (t: string) => {
      const b = parseIpv4(t);
      return b ? formatIp(b) : null;
    };
    expect(v4("127.0.0.1")).toBe("127.0.0.1");
    expect(v4("2130706433")).toBe("127.0.0.1");
    expect(v4("017700000001")).toBe("127.0.0.1");
    expect(v4("0x7f000001")).toBe("127.0.0.1");
    expect(v4("0x7f.1")).toBe("127.0.0.1");
    expect(v4("127.1")).toBe("127.0.0.1");
    expect(v4("0177.0.0.01")).toBe("127.0.0.1");
    expect(v4("10.0.0.1.")).toBe("10.0.0.1");
    expect(v4("0")).toBe("0.0.0.0");
    expect(v4("4294967296")).toBeNull();
    expect(v4("256.0.0.1")).toBeNull();
    expect(v4("09.0.0.1")).toBeNull();
    expect(v4("1.2.3.4.5")).toBeNull();
    expect(v4("example.com")).toBeNull();
  });

  test("parseIp() reads IPv6 with ::, brackets, a zone and a dotted IPv4 tail; formatIp() writes RFC 5952", () => {
    const ip = (t: string) => {
      const b = parseIp(t);
      return b ? formatIp(b) : null;
    };
    expect(ip("::1")).toBe("::1");
    expect(ip("[::1]")).toBe("::1");
    expect(ip("fe80::1%eth0")).toBe("fe80::1");
    expect(ip("::ffff:10.0.0.1")).toBe("::ffff:a00:1");
    expect(ip("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(ip("1:0:0:2:0:0:0:3")).toBe("1:0:0:2::3");
    expect(ip("1::2::3")).toBeNull();
    expect(ip("12345::")).toBeNull();
    expect(ip("::ffff:1.2.3")).toBeNull();
  });
});

describe("classifyAddress()", () => {
  const cases: [string, AddressClass][] = [
    // IPv4
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link_local"],
    ["169.254.0.1", "link_local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["192.0.2.10", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.200", "documentation"],
    ["198.18.0.1", "benchmark"],
    ["198.19.255.255", "benchmark"],
    ["192.0.0.8", "reserved"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    // other spellings of the same addresses
    ["2130706433", "loopback"],
    ["0x7f.1", "loopback"],
    ["017700000001", "loopback"],
    ["0xa000001", "private"],
    ["0251.0376.0251.0376", "link_local"],
    // IPv6
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link_local"],
    ["febf:ffff::1", "link_local"],
    ["fc00::1", "unique_local"],
    ["fd12:3456:789a::1", "unique_local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["2001:2::1", "benchmark"],
    ["2001::1", "reserved"], // Teredo
    ["100::1", "reserved"],
    ["::7f00:1", "reserved"], // IPv4-compatible
    ["fec0::1", "reserved"],
    ["4000::1", "reserved"], // outside 2000::/3
    ["64:ff9b:1::1", "reserved"],
    // IPv4 carried in IPv6: judged by the IPv4 address
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link_local"],
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::7f00:1", "loopback"], // NAT64
    ["64:ff9b::a9fe:a9fe", "link_local"],
    ["64:ff9b::808:808", "public"],
    ["2002:c0a8:101::1", "private"], // 6to4 of 192.168.1.1
    ["2002:808:808::1", "public"],
    // public
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001::200e", "public"],
  ];
  for (const [text, expected] of cases) {
    test(`classifyAddress() puts ${text} in class ${expected}`, () => {
      expect(cls(text)).toBe(expected);
    });
  }

  test("classifyAddress() says which IPv4 address an IPv6 one carries, and is null for a name", () => {
    expect(classifyAddress("::ffff:7f00:1")).toEqual({ class: "loopback", address: "::ffff:7f00:1", embedded: "127.0.0.1" });
    expect(classifyAddress("example.com")).toBeNull();
  });
});

describe("checkOutboundHost()", () => {
  test("checkOutboundHost() judges a literal as it is, without asking the resolver", async () => {
    const r = table({});
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "017700000001", "[::1]", "::ffff:7f00:1", "169.254.169.254"]) {
      const v = await checkOutboundHost(host, r);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.refusal).toBe("not_public");
    }
    expect(await checkOutboundHost("8.8.8.8", r)).toEqual({ ok: true, host: "8.8.8.8", literal: true, addresses: ["8.8.8.8"] });
    expect(r.asked).toEqual([]);
  });

  test("checkOutboundHost() refuses a name that resolves to any non-public address, naming it and its class", async () => {
    const r = table({
      "metadata.test": ["169.254.169.254"],
      "intranet.test": ["10.0.0.7"],
      "mixed.test": ["93.184.216.34", "192.168.0.10"],
      "mapped.test": ["::ffff:10.0.0.1"],
      "ula.test": ["fd00::5"],
      "localhost": ["127.0.0.1", "::1"],
    });
    const message = async (h: string) => {
      const v = await checkOutboundHost(h, r);
      if (v.ok) throw new Error(`${h} passed`);
      expect(v.refusal).toBe("not_public");
      return v.message;
    };
    expect(await message("metadata.test")).toBe("metadata.test resolves to 169.254.169.254, a link-local address");
    expect(await message("intranet.test")).toBe("intranet.test resolves to 10.0.0.7, a private address");
    expect(await message("mixed.test")).toBe("mixed.test resolves to 192.168.0.10, a private address");
    expect(await message("mapped.test")).toBe(
      "mapped.test resolves to ::ffff:a00:1, a private address (it carries the IPv4 address 10.0.0.1)",
    );
    expect(await message("ula.test")).toBe("ula.test resolves to fd00::5, a unique-local address");
    expect(await message("LOCALHOST")).toBe("localhost resolves to 127.0.0.1, a loopback address");
  });

  test("checkOutboundHost() passes a name whose every address is public, with the addresses to pin", async () => {
    const r = table({ "git.example.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"] });
    expect(await checkOutboundHost("Git.Example.Test", r)).toEqual({
      ok: true,
      host: "git.example.test",
      literal: false,
      addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    });
  });

  test("checkOutboundHost() refuses what does not resolve, a resolver's non-address, and malformed hosts", async () => {
    const r = table({ "odd.test": ["not-an-ip"] });
    const refusal = async (h: string) => {
      const v = await checkOutboundHost(h, r);
      return v.ok ? "ok" : v.refusal;
    };
    expect(await refusal("nowhere.test")).toBe("unresolved");
    expect(await refusal("odd.test")).toBe("unresolved");
    for (const bad of ["", "a..b", "-x.test", "x.test.", "1.2.3.4.5", "1.2.3.09", "exa mple.test", "ex%41mple.test", "bücher.test"]) {
      expect(await refusal(bad)).toBe("invalid_host");
    }
    expect(r.asked).toEqual(["nowhere.test", "odd.test"]);
  });
});
