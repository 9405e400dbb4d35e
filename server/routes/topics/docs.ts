import type { GovernanceAction } from "../../../core/topics/mod.ts";

const VERSION =
  " Optional body `{ expected_version }` (or `If-Match`) makes it conditional. A transition the state machine does not allow from the current status is a 409 `CONFLICT` carrying `current_status` and `allowed_from`; an action needing owner/admin called by a member or a faceless key is a 403.";

/** OpenAPI text of each governance action: the table of core/topics/governance.ts in words. */
export const GOVERNANCE_DOCS: Record<GovernanceAction, { summary: string; description: string }> = {
  propose: { summary: "Propose a topic for review", description: `draft → proposed. Anyone who may write.${VERSION}` },
  reject: { summary: "Reject a proposed topic (owner/admin)", description: `proposed → draft.${VERSION}` },
  approve: {
    summary: "Approve a topic as Knowledge (owner/admin)",
    description:
      `draft or proposed → reviewed. Stamps \`governance\` (authoritative, approved_by, approved_at) and \`approved_via\` (\`agent\` through an OAuth client or a faceless key, else \`human\`); clears drift.${VERSION}`,
  },
  archive: {
    summary: "Archive a topic",
    description:
      `draft, proposed or reviewed → archived; authority withdrawn. Anyone who may write. Archived topics leave lists (unless \`status=archived\`) and never appear in search.${VERSION}`,
  },
  unvouch: {
    summary: "Withdraw a topic's authority (owner/admin)",
    description:
      `reviewed → proposed; \`governance\` and \`approved_via\` cleared, so it is reviewed again before it is trusted.${VERSION}`,
  },
  "vouch-ack": {
    summary: "Re-vouch for a reviewed topic (owner/admin)",
    description: `reviewed → reviewed: refreshes \`approved_at\` (the topic is no longer stale) and clears drift.${VERSION}`,
  },
  restore: {
    summary: "Restore an archived topic (owner/admin)",
    description:
      `archived → draft. Decided here, where the governance table is silent: archived knowledge comes back as a Note and is reviewed again before it is trusted. A merged topic restored stops redirecting to its target.${VERSION}`,
  },
};
