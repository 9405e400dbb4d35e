/**
 * The three kinds of collection, and the stages each starts with when its schema names none.
 * A record's `status` is always one of its collection's stages.
 */
export const ARCHETYPES = ["pipeline", "analysis", "content"] as const;
export type Archetype = (typeof ARCHETYPES)[number];

export const DEFAULT_STAGES: Record<Archetype, readonly string[]> = {
  /** a sales pipeline */
  pipeline: ["lead", "qualified", "proposal", "negotiation", "won", "lost"],
  /** an analysis table: rows collected, checked, concluded */
  analysis: ["new", "in_review", "validated", "rejected"],
  /** a content calendar */
  content: ["idea", "drafting", "review", "scheduled", "published"],
};

export const COLLECTION_STATUSES = ["active", "archived"] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];
