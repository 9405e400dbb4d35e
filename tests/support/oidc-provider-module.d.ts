/** `oidc-provider` ships no types (its @types package is a third party's): what the tests use of it. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    on(event: string, listener: (...args: any[]) => void): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
