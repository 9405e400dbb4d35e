import { createHash } from "node:crypto";
import type { RedisClient } from "./connection.ts";

/**
 * A Lua script run by its SHA1 (`EVALSHA`), falling back to `EVAL` once when the server does not
 * know it yet (`NOSCRIPT`: first use, or a restarted server). A script touches keys of one hash
 * slot only, so it runs unchanged on Redis Cluster.
 */
export class RedisScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, { keys, arguments: args });
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith("NOSCRIPT")) throw e;
      return await client.eval(this.source, { keys, arguments: args });
    }
  }
}
