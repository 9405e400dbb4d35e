import { describe, expect, test } from "bun:test";
import { GOVERNANCE, GOVERNANCE_ACTIONS, TOPIC_STATUSES, transition } from "../../core/topics/governance.ts";
import { isStale, staleBefore } from "../../core/topics/staleness.ts";
import { MAX_TAG_LENGTH, normalizeTagName, normalizeTagNames } from "../../core/topics/tag-name.ts";
import { MAX_TOPIC_SLUG_LENGTH, slugCandidate, slugFromTitle, TOPIC_SLUG_PATTERN } from "../../core/topics/topic-slug.ts";

const admin = { canWrite: true, isOwnerOrAdmin: true };
const member = { canWrite: true, isOwnerOrAdmin: false };

describe("transition()", () => {
  test("transition() follows the governance table", () => {
    const cases: Array<[string, string, string]> = [
      ["draft", "propose", "proposed"],
      ["proposed", "reject", "draft"],
      ["draft", "approve", "reviewed"],
      ["proposed", "approve", "reviewed"],
      ["reviewed", "archive", "archived"],
      ["draft", "archive", "archived"],
      ["reviewed", "unvouch", "proposed"],
      ["reviewed", "vouch-ack", "reviewed"],
      ["archived", "restore", "draft"],
    ];
    for (const [from, action, to] of cases) {
      expect(transition(from as any, action as any, admin)).toEqual({ ok: true, to: to as any });
    }
  });

  test("transition() refuses what the table does not allow, naming the current state", () => {
    expect(transition("reviewed", "propose", admin)).toMatchObject({ ok: false, reason: "illegal", current: "reviewed" });
    expect(transition("archived", "archive", admin)).toMatchObject({ ok: false, reason: "illegal", current: "archived" });
    expect(transition("draft", "reject", admin)).toMatchObject({ ok: false, reason: "illegal" });
    expect(transition("reviewed", "approve", admin)).toMatchObject({ ok: false, reason: "illegal" });
  });

  test("transition() checks authority before state: members cannot approve, reject, unvouch, vouch-ack or restore", () => {
    for (const action of ["approve", "reject", "unvouch", "vouch-ack", "restore"] as const) {
      for (const from of TOPIC_STATUSES) {
        expect(transition(from, action, member)).toMatchObject({ ok: false, reason: "forbidden", authority: "owner_admin" });
      }
    }
    expect(transition("draft", "propose", member)).toEqual({ ok: true, to: "proposed" });
    expect(transition("draft", "propose", { canWrite: false, isOwnerOrAdmin: false })).toMatchObject({ reason: "forbidden" });
  });

  test("transition() refuses an owner's or admin's read-only credential every owner/admin action, naming the scope", () => {
    const readOnlyOwner = { canWrite: false, isOwnerOrAdmin: true };
    for (const action of ["approve", "reject", "unvouch", "vouch-ack", "restore"] as const) {
      for (const from of GOVERNANCE[action].from) {
        expect(transition(from, action, readOnlyOwner)).toEqual({
          ok: false,
          reason: "forbidden",
          authority: "owner_admin",
          missing: "scope",
        });
      }
    }
  });

  test("transition() names the role before the scope: a member's read-only credential lacks the role", () => {
    const readOnlyMember = { canWrite: false, isOwnerOrAdmin: false };
    expect(transition("proposed", "approve", readOnlyMember)).toMatchObject({ reason: "forbidden", missing: "role" });
    expect(transition("proposed", "approve", member)).toMatchObject({ reason: "forbidden", missing: "role" });
    // A writer's action lacks only the scope, for anyone.
    expect(transition("draft", "propose", readOnlyMember)).toMatchObject({ reason: "forbidden", authority: "writer", missing: "scope" });
    expect(transition("draft", "archive", { canWrite: false, isOwnerOrAdmin: true })).toMatchObject({ missing: "scope" });
  });

  test("transition() gives no owner/admin action to anyone short of the role and the write scope", () => {
    const actors = [admin, member, { canWrite: false, isOwnerOrAdmin: true }, { canWrite: false, isOwnerOrAdmin: false }];
    for (const action of GOVERNANCE_ACTIONS) {
      for (const from of TOPIC_STATUSES) {
        for (const actor of actors) {
          const needed = GOVERNANCE[action].authority === "owner_admin" ? actor.isOwnerOrAdmin && actor.canWrite : actor.canWrite;
          if (!needed) expect(transition(from, action, actor).ok).toBe(false);
        }
      }
    }
  });

  test("transition() never leaves the state set, from any state, for any action", () => {
    for (const from of TOPIC_STATUSES) {
      for (const action of GOVERNANCE_ACTIONS) {
        const r = transition(from, action, admin);
        if (r.ok) expect(TOPIC_STATUSES).toContain(r.to);
      }
    }
  });
});

describe("normalizeTagName()", () => {
  test("normalizeTagName() lowercases, trims and folds whitespace runs into one dash", () => {
    expect(normalizeTagName("  Release   Notes\t2026 ")).toBe("release-notes-2026");
    expect(normalizeTagName("API")).toBe("api");
  });

  test("normalizeTagName() refuses empty and over-long names", () => {
    expect(normalizeTagName("   ")).toBeNull();
    expect(normalizeTagName("x".repeat(MAX_TAG_LENGTH + 1))).toBeNull();
    expect(normalizeTagName("x".repeat(MAX_TAG_LENGTH))).toBe("x".repeat(MAX_TAG_LENGTH));
  });

  test("normalizeTagNames() drops names that normalise alike and reports the first invalid one", () => {
    expect(normalizeTagNames(["Go Lang", "go  lang", "rust"])).toEqual({ names: ["go-lang", "rust"] });
    expect(normalizeTagNames(["ok", " ", "also"])).toEqual({ invalid: " " });
  });
});

describe("slugFromTitle()", () => {
  test("slugFromTitle() folds accents and punctuation into single dashes", () => {
    expect(slugFromTitle("Café résumé: How we deploy!")).toBe("cafe-resume-how-we-deploy");
    expect(slugFromTitle("---")).toBe("topic");
  });

  test("slugFromTitle() stays within the maximum, cut at a dash", () => {
    const slug = slugFromTitle("word ".repeat(40));
    expect(slug.length).toBeLessThanOrEqual(MAX_TOPIC_SLUG_LENGTH);
    expect(slug).toMatch(new RegExp(TOPIC_SLUG_PATTERN));
    expect(slug.endsWith("-")).toBe(false);
  });

  test("slugCandidate() numbers later candidates within the maximum", () => {
    expect(slugCandidate("deploy", 1)).toBe("deploy");
    expect(slugCandidate("deploy", 3)).toBe("deploy-3");
    const long = "a".repeat(MAX_TOPIC_SLUG_LENGTH);
    expect(slugCandidate(long, 12)).toHaveLength(MAX_TOPIC_SLUG_LENGTH);
    expect(slugCandidate(long, 12).endsWith("-12")).toBe(true);
  });
});

describe("isStale()", () => {
  const now = new Date("2026-06-01T00:00:00.000Z");
  test("isStale() holds for reviewed topics not vouched for within the interval", () => {
    expect(isStale("reviewed", "2026-02-01T00:00:00.000Z", 90, now)).toBe(true);
    expect(isStale("reviewed", "2026-04-01T00:00:00.000Z", 90, now)).toBe(false);
  });

  test("isStale() is false for topics that make no claim yet", () => {
    expect(isStale("draft", "2020-01-01T00:00:00.000Z", 90, now)).toBe(false);
    expect(isStale("proposed", null, 90, now)).toBe(false);
  });

  test("staleBefore() is the cut-off a store filters on", () => {
    expect(staleBefore(90, now)).toBe("2026-03-03T00:00:00.000Z");
  });

  test("isStale() answers as the instants compare, to the millisecond, whatever the string's form", () => {
    const cut = Date.parse("2026-03-03T00:00:00.000Z");
    const forms = (ms: number) => {
      const iso = new Date(ms).toISOString();
      return [iso, iso.replace("Z", "+00:00"), iso.replace(/\.\d{3}Z$/, "Z")];
    };
    for (const [ms, stale] of [[cut - 1, true], [cut, false], [cut + 1, false], [cut - 86_400_000, true]] as const) {
      for (const form of forms(ms)) {
        expect({ form, stale: isStale("reviewed", form, 90, now) }).toEqual({ form, stale: Date.parse(form) < cut });
      }
      expect(isStale("reviewed", new Date(ms).toISOString(), 90, now)).toBe(stale);
    }
    // Another instant or interval after the first: a threshold of its own.
    expect(isStale("reviewed", "2026-03-02T00:00:00.000Z", 90, new Date("2026-05-30T00:00:00.000Z"))).toBe(false);
    expect(isStale("reviewed", "2026-03-02T00:00:00.000Z", 80, now)).toBe(true);
  });
});
