import { type Static, Type } from "@sinclair/typebox";
import { CreditAccount } from "../credits/mod.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { TRUST_VERDICTS, UpdateTopicDto } from "../topics/mod.ts";
import { CompanyFilter, CRITERION_KINDS, PersonFilter } from "./criterion-filter.ts";
import { PriceTable } from "./prices.ts";

/** `GET …/radar/credits`: the workspace's credits and what radar charges. */
export const RadarCredits = Type.Composite([CreditAccount, Type.Object({ prices: PriceTable })]);
export type RadarCredits = Static<typeof RadarCredits>;

/** `GET …/radar/criteria/{criterionSlug}`: a criterion, read from its topic. */
export const CriterionView = Type.Object({
  slug: Type.String({ description: "The topic's slug." }),
  title: Type.String({ description: "The topic's title." }),
  kind: literalUnion(CRITERION_KINDS),
  filter: Type.Union([CompanyFilter, PersonFilter], { description: "A company filter, or a person filter, as `kind` says." }),
  version: Type.Integer({ minimum: 1, description: "The topic's version: `If-Match` / `expected_version` of a revision." }),
  trust: literalUnion(TRUST_VERDICTS, { description: "The topic's trust verdict." }),
});
export type CriterionView = Static<typeof CriterionView>;

/** `PATCH …/radar/criteria/{criterionSlug}`: a new version of the criterion's topic. */
export const ReviseCriterionDto = Type.Object(
  {
    filter: Type.Optional(
      Type.Union([CompanyFilter, PersonFilter], {
        description:
          "Replaces the filter whole; it must be a filter of the criterion's kind (a person field in a company criterion is a 400). The block is rewritten in place; the rest of the body is kept byte for byte.",
      }),
    ),
    title: UpdateTopicDto.properties.title,
    expected_version: UpdateTopicDto.properties.expected_version,
  },
  {
    additionalProperties: false,
    description: "Omitted fields stay. The kind cannot change: write another criterion.",
  },
);
export type ReviseCriterionDto = Static<typeof ReviseCriterionDto>;
