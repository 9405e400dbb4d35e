/** The exit codes of `npm run store:copy` (README "Moving to PostgreSQL", ADR 069). */
export const EXIT = {
  /** Copied, and every kind's count and digest agree on both sides. */
  ok: 0,
  /** Something failed on the way (a connection, a write): run again with --resume. */
  failed: 1,
  /** The arguments are wrong: the usage is printed. */
  usage: 2,
  /** The source may be in use by a server, and no snapshot was asked for (or none exists). */
  sourceLive: 3,
  /** The target holds data (without --resume), or a server uses it. */
  targetNotEmpty: 4,
  /** SECRET_KEY is missing, does not open the source's API keys, or differs from the target's. */
  secret: 5,
  /** Copied, but a kind's count or digest differs between the two sides. */
  verifyFailed: 6,
} as const;

/** A reason the command stops before copying, with its exit code. */
export class Refusal extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}
