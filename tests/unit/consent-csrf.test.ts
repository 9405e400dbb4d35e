import { describe, expect, test } from "bun:test";
import { csrfGuard } from "../../server/http/csrf.ts";

/** The consent form's signed double-submit token, bound to a session when signed in (ADR 044). */
describe("consent CSRF token", () => {
  const guard = csrfGuard("a-secret-of-enough-length-0123456789");

  test("an unbound token verifies with its own cookie only", () => {
    const token = guard.issue();
    expect(guard.verify(token, token)).toBe(true);
    expect(guard.verify(token, guard.issue())).toBe(false);
    expect(guard.verify(null, token)).toBe(false);
  });

  test("a token bound to a session verifies with that session only", () => {
    const token = guard.issue("session-a");
    expect(guard.verify(token, token, "session-a")).toBe(true);
    expect(guard.verify(token, token, "session-b")).toBe(false);
    expect(guard.verify(token, token)).toBe(false);
    // And an unbound token is no session's.
    const unbound = guard.issue();
    expect(guard.verify(unbound, unbound, "session-a")).toBe(false);
  });

  test("a token signed under another secret, or altered, is refused", () => {
    const foreign = csrfGuard("another-secret-of-enough-length-987").issue("session-a");
    expect(guard.verify(foreign, foreign, "session-a")).toBe(false);
    const token = guard.issue("session-a");
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(guard.verify(altered, altered, "session-a")).toBe(false);
  });
});
