import { lookup } from "node:dns/promises";
import type { HostResolver } from "../../core/outbound/ports.ts";

/**
 * The `HostResolver` port over the operating system's resolver (`getaddrinfo`, as git and curl
 * resolve), bounded in time: a name that has not resolved within `timeoutMs` (default 5 s) does
 * not resolve.
 */
export function systemResolver(timeoutMs = 5_000): HostResolver {
  return {
    async resolve(host) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`resolving ${host} took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const answers = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
        return answers.map((a) => a.address);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
