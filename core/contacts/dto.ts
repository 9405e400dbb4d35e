import { type Static, Type } from "@sinclair/typebox";
import { CreditAccount } from "../credits/mod.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { CONTACT_KINDS } from "./model.ts";
import { PriceTable } from "./prices.ts";

/** `GET …/radar/credits`: the workspace's credits and what radar charges. */
export const RadarCredits = Type.Composite([CreditAccount, Type.Object({ prices: PriceTable })]);
export type RadarCredits = Static<typeof RadarCredits>;

const Id = Type.String({ format: "uuid" });

// ---- Contact paths ----

const RecordIds = Type.Array(Type.String({ format: "uuid" }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: "1 to 100 records of the collection (one of another collection or workspace is a 404).",
});
const ContactKinds = Type.Array(literalUnion(CONTACT_KINDS), {
  minItems: 1,
  maxItems: 3,
  uniqueItems: true,
  description: "`email`, `phone`, `linkedin`.",
});

export const EnrichContactsDto = Type.Object({ record_ids: RecordIds, kinds: ContactKinds }, { additionalProperties: false });
export type EnrichContactsDto = Static<typeof EnrichContactsDto>;
export const UnlockContactsDto = Type.Object({ record_ids: RecordIds, kinds: ContactKinds }, { additionalProperties: false });
export type UnlockContactsDto = Static<typeof UnlockContactsDto>;

export const ContactQuote = Type.Object({
  items: Type.Array(Type.Object({
    record_id: Id,
    kind: literalUnion(CONTACT_KINDS),
    state: Type.Union([Type.Literal("available"), Type.Literal("unlocked"), Type.Literal("unavailable")], {
      description:
        "`available`: unlocking may find it, at `credits` (charged only if found); `unlocked`: already paid for, free; `unavailable`: not a person radar knows, or looked up before and not found.",
    }),
    credits: Type.Integer({ minimum: 0 }),
  })),
  total_credits: Type.Integer({ minimum: 0, description: "The most unlocking these would charge (each entity and kind once)." }),
});
export type ContactQuote = Static<typeof ContactQuote>;

export const UnlockedContacts = Type.Object({
  items: Type.Array(Type.Object({
    record_id: Id,
    kind: literalUnion(CONTACT_KINDS),
    status: Type.Union([Type.Literal("unlocked"), Type.Literal("already_unlocked"), Type.Literal("unavailable")]),
    credits: Type.Integer({ minimum: 0, description: "Charged for this item: its price when unlocked now, else 0." }),
    value: Type.Union([Type.String(), Type.Null()], { description: "The e-mail, phone number or LinkedIn URL; null when unavailable." }),
  })),
  charged_credits: Type.Integer({ minimum: 0 }),
});
export type UnlockedContacts = Static<typeof UnlockedContacts>;

export const EnrichResult = Type.Object({
  enriched: Type.Integer({ minimum: 0, description: "Entities enriched now (charged)." }),
  skipped: Type.Integer({ minimum: 0, description: "Already enriched before: free." }),
  missed: Type.Integer({ minimum: 0, description: "The directory had no profile: free." }),
  charged_credits: Type.Integer({ minimum: 0 }),
});
export type EnrichResult = Static<typeof EnrichResult>;
