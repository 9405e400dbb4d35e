import { describe, expect, test } from "bun:test";
import postgres from "postgres";
import { isConnectionLoss, isUnavailable, unavailableOr } from "../../adapters/postgres/connection-failures.ts";
import { AppError } from "../../core/kernel/errors.ts";

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("database failures", () => {
  test("isConnectionLoss() knows the driver's, the socket's and the server's ways of saying the connection is gone", () => {
    for (
      const code of [
        "CONNECTION_CLOSED",
        "CONNECTION_DESTROYED",
        "CONNECT_TIMEOUT",
        "ECONNREFUSED",
        "ECONNRESET",
        "EPIPE",
        "08006",
        "57P01",
        "57P02",
        "57P03",
        "53300",
      ]
    ) {
      expect({ code, lost: isConnectionLoss(withCode(code)) }).toEqual({ code, lost: true });
    }
  });

  test("isConnectionLoss() leaves statement errors alone: a constraint, a bad query, a timeout on a live connection", () => {
    for (const code of ["23505", "23514", "42P01", "40001", "57014"]) expect(isConnectionLoss(withCode(code))).toBe(false);
    expect(isConnectionLoss(new Error("no code"))).toBe(false);
    expect(isConnectionLoss("text")).toBe(false);
    expect(isUnavailable(withCode("57014"))).toBe(true);
  });

  test("unavailableOr() turns unavailability into STORE_UNAVAILABLE without the driver's details, and passes anything else through", () => {
    const lost = unavailableOr(withCode("ECONNREFUSED", "connect ECONNREFUSED 10.1.2.3:5432"));
    expect(lost).toBeInstanceOf(AppError);
    expect((lost as AppError).code).toBe("STORE_UNAVAILABLE");
    expect((lost as AppError).message).not.toContain("10.1.2.3");
    expect(((lost as AppError) as { cause?: Error }).cause?.message).toContain("10.1.2.3");
    const slow = unavailableOr(withCode("57014"), 3_000) as AppError;
    expect(slow.message).toContain("did not answer within 3000 ms");
    const unique = withCode("23505");
    expect(unavailableOr(unique)).toBe(unique);
    const domain = new AppError("CONFLICT", "taken");
    expect(unavailableOr(domain)).toBe(domain);
  });

  test("a refused connection from postgres.js itself is a connection loss", async () => {
    // Port 1 on loopback: nothing listens there.
    const sql = postgres("postgres://nobody@127.0.0.1:1/none", { max: 1, connect_timeout: 2, onnotice: () => {} });
    const error = await sql`select 1`.catch((e: unknown) => e);
    await sql.end({ timeout: 0 });
    expect(isConnectionLoss(error)).toBe(true);
  });
});
