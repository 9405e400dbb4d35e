import type { HostResolver } from "../../core/outbound/ports.ts";

/**
 * Resolvers for tests: no test asks real DNS (the machine's resolver is not on loopback, and a
 * test sends traffic to loopback only). A name is answered from the table, or does not resolve.
 */
export function tableResolver(entries: Record<string, string[]> = {}): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve(host) {
      asked.push(host);
      const answer = entries[host];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`${host}: not in the test's table (no DNS in tests)`));
    },
  };
}

/** Every name fails to resolve. */
export const noDns: HostResolver = tableResolver();
