import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import type { Principal } from "../../core/access/principal.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import { assertCanActOnRadar, canActOnRadar, RADAR_ACTS } from "../../core/radar/policy.ts";

const member: Principal = {
  workspaceId: "w",
  kind: "identity",
  identityId: "i",
  memberId: "m",
  role: "member",
  via: "api_key",
  credentialId: "k",
  scopes: API_KEY_SCOPES,
};
const service: Principal = { ...member, kind: "service", identityId: null, memberId: null, role: null };
const readOnly: Principal = { ...member, via: "oauth", scopes: ["work:read"] };

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  return null;
};

describe("radar policy", () => {
  test("canActOnRadar() lets every writer (member, service key) do each act, and no read-only token", () => {
    expect(RADAR_ACTS).toEqual(["reviseCriterion", "openSearch", "priceRun", "startRun", "reconcileRun", "pauseMonitor", "resumeMonitor"]);
    for (const act of RADAR_ACTS) {
      expect(canActOnRadar(member, act)).toBe(true);
      expect(canActOnRadar(service, act)).toBe(true);
      expect(canActOnRadar(readOnly, act)).toBe(false);
      expect(refusal(() => assertCanActOnRadar(member, act))).toBeNull();
    }
  });

  test("assertCanActOnRadar() refuses a read-only token with the act named as the API has always said it", () => {
    const said = Object.fromEntries(RADAR_ACTS.map((act) => [act, refusal(() => assertCanActOnRadar(readOnly, act))]));
    for (const r of Object.values(said)) expect(r?.code).toBe("FORBIDDEN");
    expect(said.reviseCriterion?.message).toContain("Cannot revise a criterion");
    expect(said.openSearch?.message).toContain("Cannot open a radar search");
    expect(said.priceRun?.message).toContain("Cannot price a radar run");
    expect(said.startRun?.message).toContain("Cannot start a radar run");
    expect(said.reconcileRun?.message).toContain("Cannot reconcile a radar run");
    expect(said.pauseMonitor?.message).toContain("Cannot pause a radar monitor");
    expect(said.resumeMonitor?.message).toContain("Cannot resume a radar monitor");
  });
});
