import { describe, expect, test } from "bun:test";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { addMonths, contractPeriod } from "../../core/billing/period.ts";
import { PLATFORM_OPERATOR } from "../../core/credits/policy.ts";
import { defaultOfferExpiry, expiryInRange, isReissuable, offerStatus, renewalDue } from "../../core/offers/model.ts";
import { assertCanAcceptOffer, assertCanReadOffers, assertPlatformOperator } from "../../core/offers/policy.ts";

const person = (role: "owner" | "admin" | "member"): Principal => ({
  workspaceId: "w",
  kind: "identity",
  identityId: `i-${role}`,
  memberId: `m-${role}`,
  role,
  via: "api_key",
  credentialId: "k",
  scopes: API_KEY_SCOPES,
});
const now = new Date("2026-03-15T12:00:00.000Z");
const DAY = 86_400_000;

describe("offers rules", () => {
  test("offerStatus() reads an open offer past its expires_at as expired; a closed one keeps its status", () => {
    expect(offerStatus({ status: "open", expires_at: "2026-03-16T00:00:00.000Z" }, now)).toBe("open");
    expect(offerStatus({ status: "open", expires_at: now.toISOString() }, now)).toBe("expired");
    expect(offerStatus({ status: "accepted", expires_at: "2026-01-01T00:00:00.000Z" }, now)).toBe("accepted");
    expect(isReissuable({ status: "open" } as never)).toBe(true);
    expect(isReissuable({ status: "superseded" } as never)).toBe(false);
  });

  test("expiryInRange() takes an instant after now and at most 365 days ahead; the default expiry is 30 days", () => {
    expect(expiryInRange(new Date(now.getTime() + 365 * DAY).toISOString(), now)).toBe(true);
    expect(expiryInRange(new Date(now.getTime() + 365 * DAY + 1).toISOString(), now)).toBe(false);
    expect(expiryInRange(now.toISOString(), now)).toBe(false);
    expect(expiryInRange("not a date", now)).toBe(false);
    expect(defaultOfferExpiry(now)).toBe("2026-04-14T12:00:00.000Z");
  });

  test("renewalDue() is true from the contract's term end on", () => {
    expect(renewalDue({ term_ends_at: "2026-03-15T12:00:00.000Z" }, now)).toBe(true);
    expect(renewalDue({ term_ends_at: "2026-03-15T12:00:00.001Z" }, now)).toBe(false);
  });

  test("contractPeriod() counts months from the contract's start; addMonths() clamps to a shorter month's last day", () => {
    expect(addMonths("2026-01-31T10:00:00.000Z", 1)).toBe("2026-02-28T10:00:00.000Z");
    expect(contractPeriod({ started_at: "2026-01-31T10:00:00.000Z" }, now)).toEqual({
      start: "2026-02-28T10:00:00.000Z",
      end: "2026-03-31T10:00:00.000Z",
    });
    expect(contractPeriod({ started_at: "2026-04-01T00:00:00.000Z" }, now)).toEqual({
      start: "2026-04-01T00:00:00.000Z",
      end: "2026-05-01T00:00:00.000Z",
    });
  });
});

describe("offers policy", () => {
  test("assertPlatformOperator() lets the operator only; assertCanReadOffers() owners and admins; assertCanAcceptOffer() owners", () => {
    expect(() => assertPlatformOperator(PLATFORM_OPERATOR, "issue an offer")).not.toThrow();
    expect(() => assertPlatformOperator(person("owner"), "issue an offer")).toThrow(
      "Cannot issue an offer: only the platform operator may",
    );
    expect(() => assertCanReadOffers(person("admin"))).not.toThrow();
    expect(() => assertCanReadOffers(person("member"))).toThrow("Cannot read billing offers");
    expect(() => assertCanAcceptOffer(person("owner"))).not.toThrow();
    expect(() => assertCanAcceptOffer(person("admin"))).toThrow("Cannot accept a billing offer: owner authority is required");
  });
});
