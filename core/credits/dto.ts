import { type Static, Type } from "@sinclair/typebox";
import { CreditAccount, LedgerEntry } from "./model.ts";
import { MAX_LEDGER_AMOUNT } from "./ledger-rules.ts";

const strict = { additionalProperties: false } as const;

/** `POST …/credits/grant`: what the platform operator adds to a workspace's balance. */
export const GrantCreditsDto = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: MAX_LEDGER_AMOUNT, description: `Credits to add, 1 to ${MAX_LEDGER_AMOUNT}.` }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Why (kept on the ledger entry)." })),
  },
  strict,
);
export type GrantCreditsDto = Static<typeof GrantCreditsDto>;

/** The answer of a grant: its entry and the account after it. */
export const GrantResult = Type.Object({ entry: LedgerEntry, balance: CreditAccount });
export type GrantResult = Static<typeof GrantResult>;

/** A page of the ledger, newest first. */
export const LedgerPage = Type.Object({
  entries: Type.Array(LedgerEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: "The cursor of the next page; null on the last one." }),
});
export type LedgerPage = Static<typeof LedgerPage>;
