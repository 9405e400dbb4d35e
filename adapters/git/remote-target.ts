/**
 * Where a remote clone URL makes git connect, read as git and curl read it, so the address rule
 * (core/outbound/) judges the host git will really contact and the connection can be pinned to
 * the addresses it judged.
 *
 * - `https://[user[:pw]@]host[:port]/path`: curl connects; pinned with `http.curloptResolve`
 *   (curl's `CURLOPT_RESOLVE`, so curl does not resolve the name again) and redirects are not
 *   followed (one could lead anywhere).
 * - `ssh://[user@]host[:port]/path` and `user@host:path`: OpenSSH connects; pinned with
 *   `-o HostName=<address>` (the command line wins over ssh_config) and `-o HostKeyAlias=<host>`
 *   (the host key is still checked under the name).
 */
export interface RemoteTarget {
  scheme: "https" | "ssh";
  /** The host as written, without IPv6 brackets. */
  host: string;
  port: number;
}

/** The host and port of a remote URL git accepts here; null when it is none (e.g. several `@`). */
export function remoteTarget(url: string): RemoteTarget | null {
  const scp = /^[A-Za-z0-9._-]+@([^\s:/[\]@]+):/.exec(url);
  if (scp && !url.startsWith("ssh://")) return { scheme: "ssh", host: scp[1]!, port: 22 };
  const m = /^(https|ssh):\/\/([^/?#\\]*)/.exec(url);
  if (!m) return null;
  const scheme = m[1] as "https" | "ssh";
  const authority = m[2]!;
  if (authority.split("@").length > 2) return null;
  const hostPort = authority.slice(authority.indexOf("@") + 1);
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(hostPort);
  const plain = /^([^:[\]]+)(?::(\d*))?$/.exec(hostPort);
  const parts = bracketed ?? plain;
  if (!parts) return null;
  const port = parts[2] ? Number(parts[2]) : scheme === "https" ? 443 : 22;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { scheme, host: parts[1]!, port };
}

/** `-c` options and environment that make git connect to `addresses` for `target` and nowhere else. */
export function pinnedTo(target: RemoteTarget, addresses: string[]): { config: string[]; env: Record<string, string> } {
  if (target.scheme === "https") {
    const list = addresses.map((a) => (a.includes(":") ? `[${a}]` : a)).join(",");
    return {
      config: ["-c", `http.curloptResolve=${target.host.toLowerCase()}:${target.port}:${list}`, "-c", "http.followRedirects=false"],
      env: {},
    };
  }
  // Known hosts are keyed `host`, or `[host]:port` off port 22; the alias keeps that key.
  const alias = target.port === 22 ? target.host : `[${target.host}]:${target.port}`;
  // git runs GIT_SSH_COMMAND through a shell: the address is a literal and the host a checked
  // DNS name (no quote in either); the quotes keep `[host]:port` from being read as a pattern.
  return { config: [], env: { GIT_SSH_COMMAND: `ssh -o BatchMode=yes -o 'HostName=${addresses[0]}' -o 'HostKeyAlias=${alias}'` } };
}
