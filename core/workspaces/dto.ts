import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { IdSchema, NameSchema } from "../kernel/field-schemas.ts";
import { Member, PLANS, REPO_PROVIDERS, ROLES } from "./model.ts";

/**
 * What crosses the workspaces API: request bodies (validated at the edge, documented in OpenAPI),
 * views, and the field schemas other modules' bodies reuse (slugs, ids, e-mail addresses, names).
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const strict = { additionalProperties: false } as const;

// Re-exported: the server's routes read them from here.
export { IdSchema, NameSchema };

/** A member as lists and details show it: the membership plus the person's email and name. */
export const MemberView = Type.Object({ ...Member.properties, email: Type.String(), name: Nullable(Type.String()) });
export type MemberView = Static<typeof MemberView>;

export const WorkspaceCounts = Type.Object({
  members: Type.Integer(),
  api_keys: Type.Integer(),
  areas: Type.Integer(),
  repos: Type.Integer(),
});
export type WorkspaceCounts = Static<typeof WorkspaceCounts>;

// ---- schemas of request bodies (validated at the edge, documented in OpenAPI) ----

export const SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9-]{1,46})[a-z0-9]$";
export const SlugSchema = Type.String({
  pattern: SLUG_PATTERN,
  minLength: 3,
  maxLength: 48,
  description: "Lowercase letters, digits and dashes; 3 to 48 characters; starts and ends with a letter or digit.",
});
const EMAIL_PATTERN = "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$";
export const EmailSchema = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254, description: "An e-mail address." });
const DescriptionSchema = Type.String({ maxLength: 2000 });
export const RoleSchema = literalUnion(ROLES, { description: "owner, admin or member." });
export const PlanSchema = literalUnion(PLANS);

export const CreateWorkspaceDto = Type.Object(
  {
    slug: SlugSchema,
    name: Type.Optional(NameSchema),
    owner_email: Type.Optional(EmailSchema),
    owner_name: Type.Optional(NameSchema),
  },
  {
    ...strict,
    description:
      "Without credentials, `owner_email` is required and must not belong to an existing identity. With a credential (an API key, an OAuth token, the dashboard session), the caller's identity owns the new workspace and `owner_email`/`owner_name` must be omitted.",
  },
);
export type CreateWorkspaceDto = Static<typeof CreateWorkspaceDto>;

export const WorkspaceSettingsDto = Type.Object(
  { review_interval_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })) },
  strict,
);
export const UpdateWorkspaceDto = Type.Object(
  { name: Type.Optional(NameSchema), settings: Type.Optional(WorkspaceSettingsDto) },
  strict,
);
export type UpdateWorkspaceDto = Static<typeof UpdateWorkspaceDto>;

export const SetPlanDto = Type.Object({ plan: PlanSchema }, strict);
export type SetPlanDto = Static<typeof SetPlanDto>;

export const AddMemberDto = Type.Object(
  { email: EmailSchema, name: Type.Optional(NameSchema), role: Type.Optional(RoleSchema) },
  { ...strict, description: "Adds a person by e-mail; the identity is created when new. Role defaults to member." },
);
export type AddMemberDto = Static<typeof AddMemberDto>;

export const SetRoleDto = Type.Object({ role: RoleSchema }, strict);
export type SetRoleDto = Static<typeof SetRoleDto>;

export const CreateAreaDto = Type.Object({ name: NameSchema, description: Type.Optional(DescriptionSchema) }, strict);
export type CreateAreaDto = Static<typeof CreateAreaDto>;
export const UpdateAreaDto = Type.Object(
  { name: Type.Optional(NameSchema), description: Type.Optional(Type.Union([DescriptionSchema, Type.Null()])) },
  strict,
);
export type UpdateAreaDto = Static<typeof UpdateAreaDto>;

export const CreateRepoDto = Type.Object(
  {
    provider: literalUnion(REPO_PROVIDERS),
    full_name: Type.String({
      pattern: "^[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+$",
      maxLength: 200,
      description: "The repository's path at its host, e.g. `acme/api`.",
    }),
    default_branch: Type.Optional(
      Type.String({ pattern: "^[A-Za-z0-9._/-]+$", minLength: 1, maxLength: 200, description: "Defaults to `main`." }),
    ),
    clone_url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        pattern: "^(?:https://|ssh://|git@|file:///|/).*$",
        description:
          "Where the code is read from to index the default branch's files: `https://...`, `ssh://...`, `git@host:path`, `file:///path` or an absolute local path. Local paths and `file://` URLs only under the directories the server's operator names (`CODE_HOST_LOCAL_ROOTS`; none by default), never in the service's own data; a remote host only on public addresses (not loopback, private, link-local, ...) unless the operator sets `CODE_HOST_ALLOW_PRIVATE=true`. Anything else is a 400 that names the setting.",
      }),
    ),
  },
  strict,
);
export type CreateRepoDto = Static<typeof CreateRepoDto>;
