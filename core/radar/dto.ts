import { type Static, Type } from "@sinclair/typebox";
import { CreditAccount } from "../credits/mod.ts";
import { PriceTable } from "./prices.ts";

/** `GET …/radar/credits`: the workspace's credits and what radar charges. */
export const RadarCredits = Type.Composite([CreditAccount, Type.Object({ prices: PriceTable })]);
export type RadarCredits = Static<typeof RadarCredits>;
