import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider for the tests: panva's `oidc-provider` (exact-pinned), in this
 * process on a free loopback port, with its development interactions (a login form taking any
 * password, then a consent form). Accounts are the given people; one confidential client.
 */
export interface TestAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/** The provider's one client: what the app's OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must say. */
export const TEST_OIDC_CLIENT = { clientId: "wks-dashboard", clientSecret: "test-client-secret-0123456789abcdef" } as const;

export async function startOidcProvider(
  opts: {
    redirectUris: string[];
    accounts: Record<string, TestAccount>;
    /** A port chosen beforehand (a server started first names the issuer in its settings); default any free one. */
    port?: number;
  },
): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as { port: number }).port;
  const issuer = `http://127.0.0.1:${port}`;
  const { clientId, clientSecret } = TEST_OIDC_CLIENT;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: opts.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const account = opts.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: account.email_verified ?? true, name: account.name }),
      };
    },
  } as never);
  // Quiet: the development interactions and keys warn on every start.
  provider.on("server_error", (_ctx: unknown, error: Error) => console.error("oidc-provider:", error));
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar of one site: the names and values its `Set-Cookie`s left (a `Max-Age=0` removes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/max-age=0\b/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * A browser at the provider: from its authorization URL, follows redirects and submits the
 * development login (`login`, any password) and consent forms, until the provider redirects
 * elsewhere (the relying party's callback), which it answers.
 */
export async function signInAtProvider(start: string, login: string, jar = new CookieJar()): Promise<URL> {
  let url = new URL(start);
  const origin = url.origin;
  let method = "GET";
  let body: string | undefined;
  for (let i = 0; i < 20; i++) {
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: { cookie: jar.header(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
    });
    jar.take(res.headers);
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      await res.arrayBuffer();
      if (next.origin !== origin) return next;
      [url, method, body] = [next, "GET", undefined];
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`oidc-provider answered ${res.status}: ${html.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`oidc-provider page without a form: ${html.slice(0, 500)}`);
    url = new URL(action.replace(/&amp;/g, "&"), url);
    method = "POST";
    body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt }).toString();
  }
  throw new Error("oidc-provider: too many steps");
}
