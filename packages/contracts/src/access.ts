import { z } from 'zod';
import { ROLES, type Role } from './enums.js';

/**
 * Access: user administration (`/api/auth/invite_user`, `/api/people/update`,
 * `DELETE /api/people/{id}`, `/api/rbac/{id}/update_role`) and the merged property list
 * (`GET /api/properties`). The texts the spec fixes for the Users and Feature Flags pages
 * live here too, so the forms (zodResolver) and the server validate with the same words.
 */

/** Texts of the Users page (spec 1, sections 2.5, 5 and 8). */
export const USER_FORM_MESSAGES = {
  firstName: 'Please provide valid first name',
  lastName: 'Please provide valid last name',
  email: 'Please provide valid email',
  emailFormat: 'Entered value does not match email format',
  role: 'Please select any role',
  deleteConfirm: 'Are you sure you want to delete this user ?',
  deleted: 'user deleted successfully',
} as const;

/** Labels of the Users page that the spec fixes (spec 1, sections 2.2 and 2.5). */
export const USERS_PAGE_TEXTS = {
  title: 'Users',
  invite: 'Invite User',
  columns: {
    name: 'Name',
    email: 'Email',
    roles: 'Roles',
    state: 'State',
    createdAt: 'Created At',
    actions: 'Actions',
  },
} as const;

/** Success toast after an invite: '{name} invited successfully'. */
export const userInvitedMessage = (name: string): string => `${name} invited successfully`;
/** Success toast after an edit: '{name} updated successfully'. */
export const userUpdatedMessage = (name: string): string => `${name} updated successfully`;

/** Texts of the Feature Flags page (spec 3, sections 5 and 8). */
export const FEATURE_FLAG_MESSAGES = {
  required: 'please provide all details',
  localReadOnly: 'Cannot edit local feature flags',
  added: 'Feature flag added successfully',
  updated: 'Feature flag updated successfully',
  removed: 'Feature flag removed successfully',
} as const;

/** Labels of the Feature Flags page (spec 1 section 2.2, spec 3 sections 2.8 and 3). */
export const FEATURE_FLAGS_PAGE_TEXTS = {
  title: 'Feature Flags',
  add: 'Add Feature Flag',
  columns: {
    name: 'Name',
    value: 'Value',
    description: 'Description',
    source: 'Source',
    createdBy: 'Created By',
    createdAt: 'Created',
    updatedAt: 'Updated',
  },
} as const;

/** The roles the user form offers, highest rank first (spec 1, section 3). */
export const USER_FORM_ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly Role[];
export type UserFormRole = (typeof USER_FORM_ROLES)[number];

/**
 * The role the user form shows for a person's roles: the highest-ranked of admin, editor and
 * viewer. Commander and responder build on viewer (they read what a viewer reads), and no
 * role at all means viewer, so every person has one.
 */
export function highestFormRole(roles: readonly string[]): UserFormRole {
  return USER_FORM_ROLES.find((role) => roles.includes(role)) ?? 'viewer';
}

/**
 * The roles a person has after the user form (invite of an existing user, edit) set `role`:
 * the form's role replaces admin, editor and viewer, and the incident roles the form cannot
 * show (commander, responder) are kept. `update_role` instead replaces the whole list.
 */
export function rolesAfterFormRole(current: readonly Role[], role: Role): Role[] {
  const kept: readonly Role[] = current.filter((existing) => existing === 'commander' || existing === 'responder');
  return ROLES.filter((candidate) => candidate === role || kept.includes(candidate));
}

const personName = (message: string) =>
  z.string({ message }).trim().min(1, { message }).max(100, { message: 'must be at most 100 characters' });

const emailField = z
  .string({ message: USER_FORM_MESSAGES.email })
  .trim()
  .min(1, { message: USER_FORM_MESSAGES.email })
  .max(320, { message: 'must be at most 320 characters' })
  .pipe(z.email({ message: USER_FORM_MESSAGES.emailFormat }));

const roleField = z.enum(ROLES, { message: `${USER_FORM_MESSAGES.role}: one of ${ROLES.join(', ')}` });

/**
 * The Users page form (invite and edit). `role` is one of admin, editor or viewer there;
 * `active` only shows when editing.
 */
export const userFormSchema = z.object({
  firstName: personName(USER_FORM_MESSAGES.firstName),
  lastName: personName(USER_FORM_MESSAGES.lastName),
  email: emailField,
  role: z.enum(USER_FORM_ROLES, { message: USER_FORM_MESSAGES.role }),
  active: z.boolean().optional(),
});
export type UserForm = z.infer<typeof userFormSchema>;

/** `POST /api/auth/invite_user`. Without `role`, a new user has no role (a viewer). */
export const inviteUserBodySchema = z.object({
  firstName: personName(USER_FORM_MESSAGES.firstName),
  lastName: personName(USER_FORM_MESSAGES.lastName),
  email: emailField,
  role: roleField.optional(),
});
export type InviteUserBody = z.infer<typeof inviteUserBodySchema>;

/**
 * Answer of `invite_user`: `invited` is false when the email already belonged to a user
 * (whose role was set instead). `link` is the one-time link that lets a new user set a
 * password; it is also emailed (or, with no SMTP server configured, kept in the email outbox).
 */
export const inviteUserResponseSchema = z.object({
  message: z.string().max(500),
  id: z.uuid(),
  invited: z.boolean(),
  link: z.string().max(2000).optional(),
  expiresAt: z.string().max(64).optional(),
});
export type InviteUserResponse = z.infer<typeof inviteUserResponseSchema>;

/** `POST /api/people/update`. `active` false deactivates the user and ends their sessions. */
export const updatePersonBodySchema = z.object({
  id: z.uuid({ message: 'must be a user id (UUID)' }),
  firstName: personName(USER_FORM_MESSAGES.firstName),
  lastName: personName(USER_FORM_MESSAGES.lastName),
  email: emailField,
  role: roleField,
  active: z.boolean().optional(),
});
export type UpdatePersonBody = z.infer<typeof updatePersonBodySchema>;

/** Answer of `people/update`, read for the '{name} updated successfully' toast. */
export const updatePersonResponseSchema = z.object({
  email: z.string().max(320),
  name: z.object({ first: z.string().max(100), last: z.string().max(100) }),
});
export type UpdatePersonResponse = z.infer<typeof updatePersonResponseSchema>;

/** `{id}` of `DELETE /api/people/{id}` and `POST /api/rbac/{id}/update_role`. */
export const personIdParamsSchema = z.object({ id: z.uuid({ message: 'must be a user id (UUID)' }) });

/** `POST /api/rbac/{id}/update_role`: the person's complete role list (empty: viewer). */
export const updateRoleBodySchema = z.object({
  roles: z.array(z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` })).max(ROLES.length * 2),
});
export type UpdateRoleBody = z.infer<typeof updateRoleBodySchema>;

/** A `{message}` answer. */
export const messageResponseSchema = z.object({ message: z.string().max(1000) });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Where a property comes from: the server's configuration (read-only) or the database. */
export const PROPERTY_SOURCES = ['local', 'db'] as const;
export type PropertySource = (typeof PROPERTY_SOURCES)[number];

/** The kind of value a property holds, guessed from the value itself. */
export const PROPERTY_TYPES = ['boolean', 'number', 'string'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** One entry of `GET /api/properties`. Local entries have no author nor timestamps. */
export const propertySchema = z.object({
  name: z.string().max(255),
  value: z.string().max(10_000),
  description: z.string().max(2000).nullable(),
  source: z.enum(PROPERTY_SOURCES),
  type: z.enum(PROPERTY_TYPES),
  created_by: z
    .object({ id: z.string().max(64), name: z.string().max(255), avatar: z.string().max(2000).nullable() })
    .nullable(),
  created_at: z.string().max(64).nullable(),
  updated_at: z.string().max(64).nullable(),
});
export type Property = z.infer<typeof propertySchema>;

/** `GET /api/properties`: local properties first, then database ones, each by name. */
export const propertiesResponseSchema = z.array(propertySchema);

/** The Feature Flags page form (written through `/api/db/properties`). */
export const featureFlagFormSchema = z.object({
  name: z
    .string({ message: FEATURE_FLAG_MESSAGES.required })
    .trim()
    .min(1, { message: FEATURE_FLAG_MESSAGES.required })
    .max(255, { message: 'must be at most 255 characters' }),
  value: z
    .string({ message: FEATURE_FLAG_MESSAGES.required })
    .trim()
    .min(1, { message: FEATURE_FLAG_MESSAGES.required })
    .max(10_000, { message: 'must be at most 10000 characters' }),
  description: z.string().max(2000, { message: 'must be at most 2000 characters' }).optional(),
});
export type FeatureFlagForm = z.infer<typeof featureFlagFormSchema>;

/** The type `GET /api/properties` reports for a value. */
export function propertyType(value: string): PropertyType {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === 'true' || trimmed === 'false') return 'boolean';
  if (trimmed !== '' && Number.isFinite(Number(trimmed))) return 'number';
  return 'string';
}

/**
 * One row of `GET /api/db/people_roles?id=in.(...)`: a live person with an email and their
 * roles, highest rank first; `[]` means no role (a viewer). The web checks permissions with
 * the signed-in user's row and shows the Roles column of the Users page from the others.
 */
export const peopleRolesRowSchema = z.object({
  id: z.uuid(),
  name: z.string().max(255),
  email: z.string().max(320).nullable(),
  roles: z.array(z.enum(ROLES)).max(ROLES.length * 2),
});
export type PeopleRolesRow = z.infer<typeof peopleRolesRowSchema>;

/** `GET /api/db/people_roles`: a list of {@link peopleRolesRowSchema}. */
export const peopleRolesResponseSchema = z.array(peopleRolesRowSchema);

/**
 * The columns of `GET /api/db/identities` the Users page selects (spec 1, section 3: id,
 * traits.name.first, traits.name.last, traits.email, state, created_at). Traits are loose
 * because an external Ory Kratos may use a different identity schema: missing names read as
 * empty.
 */
export const identityRowSchema = z.object({
  id: z.uuid(),
  // 'active' or 'inactive' here; kept open because an external Kratos may add states.
  state: z.string().max(32),
  traits: z.object({
    email: z.string().max(320).optional(),
    name: z
      .object({ first: z.string().max(100).optional(), last: z.string().max(100).optional() })
      .partial()
      .optional(),
  }),
  created_at: z.string().max(64),
  state_changed_at: z.string().max(64).nullable().optional(),
  updated_at: z.string().max(64).nullable().optional(),
});
export type IdentityRow = z.infer<typeof identityRowSchema>;

/** `GET /api/db/identities`: a list of {@link identityRowSchema}. */
export const identitiesResponseSchema = z.array(identityRowSchema);
