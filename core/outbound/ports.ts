/**
 * How a host name becomes addresses. Core never resolves names itself (it has no network); the
 * host gives it a resolver (the server: the operating system's, adapters/git/dns-resolver.ts;
 * tests: a table), so the address rule is tested without any traffic.
 */
export interface HostResolver {
  /**
   * Every address `host` resolves to, as literals (`93.184.216.34`, `2606:2800::1`). An empty
   * list, or a throw, means it does not resolve now.
   */
  resolve(host: string): Promise<string[]>;
}
