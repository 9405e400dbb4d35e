import { describe, expect, test } from "bun:test";
import { readConfig } from "../../server/config.ts";

describe("readConfig()", () => {
  test("readConfig() takes OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET all three or none", () => {
    expect(readConfig({}).oidc).toBeNull();
    const all = { OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "wks", OIDC_CLIENT_SECRET: "s" };
    expect(readConfig(all).oidc).toEqual({ issuer: "https://id.example.com", clientId: "wks", clientSecret: "s" });
    expect(() => readConfig({ ...all, OIDC_CLIENT_SECRET: "" })).toThrow(/OIDC_CLIENT_SECRET unset/);
    expect(() => readConfig({ OIDC_ISSUER: "https://id.example.com" })).toThrow(/OIDC_CLIENT_ID, OIDC_CLIENT_SECRET unset/);
    expect(() => readConfig({ ...all, OIDC_ISSUER: "http://id.example.com" })).toThrow(/Invalid OIDC_ISSUER/);
    expect(readConfig({ ...all, OIDC_ISSUER: "http://127.0.0.1:9000" }).oidc?.issuer).toBe("http://127.0.0.1:9000");
  });

  test("readConfig() checks IDENTITY_WEBHOOK_SECRET is whsec_ and base64", () => {
    const oidc = { OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "wks", OIDC_CLIENT_SECRET: "s" };
    expect(readConfig({}).identityWebhookSecret).toBeNull();
    expect(readConfig({ ...oidc, IDENTITY_WEBHOOK_SECRET: "whsec_c2VjcmV0" }).identityWebhookSecret).toBe("whsec_c2VjcmV0");
    expect(() => readConfig({ ...oidc, IDENTITY_WEBHOOK_SECRET: "secret" })).toThrow(/Invalid IDENTITY_WEBHOOK_SECRET/);
    expect(() => readConfig({ IDENTITY_WEBHOOK_SECRET: "whsec_c2VjcmV0" })).toThrow(/needs the OIDC_\* settings/);
  });

  test("readConfig() refuses DATABASE_URL and MONGO_URL together", () => {
    expect(() => readConfig({ DATABASE_URL: "postgres://x", MONGO_URL: "mongodb://y" })).toThrow(/Both DATABASE_URL and MONGO_URL/);
  });

  test("readConfig() reads the backends and limits, with defaults", () => {
    const c = readConfig({ MONGO_URL: "mongodb://y", REDIS_URL: "redis://z", RATE_LIMIT_PER_KEY: "0" });
    expect(c).toMatchObject({
      mongoUrl: "mongodb://y",
      redisUrl: "redis://z",
      databaseUrl: null,
      rateLimitPerKey: 0,
      rateLimitPerIp: 30,
      port: 3000,
    });
  });

  test("readConfig() reads the code-host settings: no local roots and public hosts only unless said otherwise", () => {
    expect(readConfig({})).toMatchObject({
      codeHostWebhookSecret: null,
      codeHostLocalRoots: [],
      codeHostAllowPrivate: false,
      gitCacheDir: null,
    });
    expect(readConfig({ DATABASE_URL: "postgres://x" }).codeHostLocalRoots).toEqual([]);
    expect(
      readConfig({
        MONGO_URL: "mongodb://y",
        CODE_HOST_LOCAL_ROOTS: "/srv/git: /home/ana/code ,:",
        CODE_HOST_ALLOW_PRIVATE: "true",
        CODE_HOST_WEBHOOK_SECRET: "s3cret",
        GIT_CACHE_DIR: "/var/cache/git",
      }),
    ).toMatchObject({
      codeHostLocalRoots: ["/srv/git", "/home/ana/code ,"],
      codeHostAllowPrivate: true,
      codeHostWebhookSecret: "s3cret",
      gitCacheDir: "/var/cache/git",
    });
    expect(() => readConfig({ CODE_HOST_LOCAL_ROOTS: "/srv/git:repos" })).toThrow(
      /Invalid CODE_HOST_LOCAL_ROOTS: expected absolute directories/,
    );
    expect(() => readConfig({ CODE_HOST_ALLOW_PRIVATE: "yes" })).toThrow(/Invalid CODE_HOST_ALLOW_PRIVATE/);
  });

  test("readConfig() stops on CODE_HOST_LOCAL_PATHS, naming the setting that replaced it", () => {
    for (const value of ["true", "false"]) {
      expect(() => readConfig({ CODE_HOST_LOCAL_PATHS: value })).toThrow(
        /CODE_HOST_LOCAL_PATHS is no longer read: it is replaced by CODE_HOST_LOCAL_ROOTS/,
      );
    }
  });

  test("readConfig() listens on loopback when embedded, on every interface with a database server, or on HOST", () => {
    expect(readConfig({}).host).toBe("127.0.0.1");
    expect(readConfig({ DATABASE_URL: "postgres://x" }).host).toBe("0.0.0.0");
    expect(readConfig({ MONGO_URL: "mongodb://y" }).host).toBe("0.0.0.0");
    expect(readConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(readConfig({ DATABASE_URL: "postgres://x", HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
  });

  test("readConfig() reads WORKSPACE_BOOTSTRAP: open (the default) or operator, nothing else", () => {
    expect(readConfig({}).workspaceBootstrap).toBe("open");
    expect(readConfig({ WORKSPACE_BOOTSTRAP: "operator" }).workspaceBootstrap).toBe("operator");
    expect(() => readConfig({ WORKSPACE_BOOTSTRAP: "closed" })).toThrow(/Invalid WORKSPACE_BOOTSTRAP: expected one of open, operator/);
  });

  test("readConfig() accepts WORKERS=off only with a shared job queue (REDIS_URL or DATABASE_URL), and on or off only", () => {
    expect(readConfig({ WORKERS: "on" }).workers).toBe(true);
    expect(readConfig({}).workers).toBe(true);
    expect(() => readConfig({ WORKERS: "off" })).toThrow(/WORKERS=off needs a job queue other processes share/);
    expect(() => readConfig({ WORKERS: "off", MONGO_URL: "mongodb://localhost/x" })).toThrow(/WORKERS=off needs a job queue/);
    expect(readConfig({ WORKERS: "off", REDIS_URL: "redis://localhost" }).workers).toBe(false);
    expect(readConfig({ WORKERS: "off", DATABASE_URL: "postgres://localhost/x" }).workers).toBe(false);
    expect(() => readConfig({ WORKERS: "no" })).toThrow(/Invalid WORKERS: expected on or off/);
    expect(readConfig({}).jobLeaseMs).toBe(30_000);
    expect(readConfig({ JOB_LEASE_MS: "2000" }).jobLeaseMs).toBe(2_000);
    expect(() => readConfig({ JOB_LEASE_MS: "10" })).toThrow(/JOB_LEASE_MS/);
  });

  test("readConfig() reads the unlock holds' lease and sweep interval, with their defaults and bounds", () => {
    expect(readConfig({})).toMatchObject({ radarUnlockLeaseMs: 60_000, radarUnlockSweepMs: 15_000 });
    expect(readConfig({ RADAR_UNLOCK_LEASE_MS: "2000", RADAR_UNLOCK_SWEEP_MS: "250" })).toMatchObject({
      radarUnlockLeaseMs: 2_000,
      radarUnlockSweepMs: 250,
    });
    expect(() => readConfig({ RADAR_UNLOCK_LEASE_MS: "10" })).toThrow(/RADAR_UNLOCK_LEASE_MS/);
    expect(() => readConfig({ RADAR_UNLOCK_SWEEP_MS: "0" })).toThrow(/RADAR_UNLOCK_SWEEP_MS/);
  });

  test("readConfig() rejects malformed numbers instead of guessing", () => {
    expect(() => readConfig({ PORT: "http" })).toThrow(/Invalid PORT/);
    expect(() => readConfig({ RATE_LIMIT_WINDOW_MS: "5" })).toThrow(/Invalid RATE_LIMIT_WINDOW_MS/);
  });

  test("readConfig() takes PUBLIC_URL as an http(s) origin, and refuses a path, query, fragment or other scheme", () => {
    expect(readConfig({}).publicUrl).toBeNull();
    expect(readConfig({ PUBLIC_URL: "https://kb.example.com" }).publicUrl).toBe("https://kb.example.com");
    expect(readConfig({ PUBLIC_URL: "https://KB.example.com:8443/" }).publicUrl).toBe("https://kb.example.com:8443");
    expect(readConfig({ PUBLIC_URL: "http://127.0.0.1:3000" }).publicUrl).toBe("http://127.0.0.1:3000");
    for (
      const bad of [
        "kb.example.com",
        "ftp://kb.example.com",
        "https://kb.example.com/api",
        "https://kb.example.com?x=1",
        "https://kb.example.com/#top",
        "https://u:p@kb.example.com",
      ]
    ) {
      expect(() => readConfig({ PUBLIC_URL: bad })).toThrow(/Invalid PUBLIC_URL/);
    }
  });

  test("SMTP_URL needs MAIL_FROM and an smtp(s) URL; BLOG_DIR defaults to content/blog", () => {
    expect(readConfig({}).smtp).toBeNull();
    expect(readConfig({}).blogDir).toBe("content/blog");
    expect(readConfig({ BLOG_DIR: "/srv/blog" }).blogDir).toBe("/srv/blog");
    expect(readConfig({ MAIL_FROM: "kb@example.com" }).mailFrom).toBe("kb@example.com");
    expect(readConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465", MAIL_FROM: "KB <kb@example.com>" }).smtp).toEqual({
      url: "smtps://u:p@mail.example.com:465",
      from: "KB <kb@example.com>",
    });
    expect(() => readConfig({ SMTP_URL: "smtp://mail.example.com" })).toThrow(/SMTP_URL needs MAIL_FROM/);
    expect(() => readConfig({ SMTP_URL: "https://mail.example.com", MAIL_FROM: "kb@example.com" })).toThrow(/Invalid SMTP_URL/);
    expect(() => readConfig({ SMTP_URL: "not a url", MAIL_FROM: "kb@example.com" })).toThrow(/Invalid SMTP_URL/);
  });
});
