import type { IdentityRow, PeopleRolesRow, Role } from '@lookout/contracts';

/** A user as the Users page lists them (spec 1, section 3: "User as listed"). */
export interface UserListItem {
  id: string;
  firstName: string;
  lastName: string;
  /** 'First Last', or the email when the identity has no name. */
  name: string;
  email: string;
  /** Stored roles, highest rank first; empty means viewer. */
  roles: readonly Role[];
  /** 'active', or another identity state ('inactive'). */
  state: string;
  createdAt: string;
}

/** '{first} {last}', the name the page and its toasts use; the email when both are blank. */
export function userDisplayName(firstName: string, lastName: string, email = ''): string {
  return [firstName.trim(), lastName.trim()].filter(Boolean).join(' ') || email;
}

/** Joins identities with their `people_roles` rows (a person without a row has no role). */
export function toUserListItems(
  identities: readonly IdentityRow[],
  peopleRoles: readonly PeopleRolesRow[],
): UserListItem[] {
  const rolesById = new Map(peopleRoles.map((row) => [row.id, row.roles]));
  return identities.map((identity) => {
    const firstName = identity.traits.name?.first ?? '';
    const lastName = identity.traits.name?.last ?? '';
    const email = identity.traits.email ?? '';
    return {
      id: identity.id,
      firstName,
      lastName,
      name: userDisplayName(firstName, lastName, email),
      email,
      roles: rolesById.get(identity.id) ?? [],
      state: identity.state,
      createdAt: identity.created_at,
    };
  });
}
