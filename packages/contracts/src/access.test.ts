import { describe, expect, it } from 'vitest';
import {
  FEATURE_FLAG_MESSAGES,
  featureFlagFormSchema,
  identitiesResponseSchema,
  peopleRolesResponseSchema,
  highestFormRole,
  inviteUserBodySchema,
  propertyType,
  rolesAfterFormRole,
  updateRoleBodySchema,
  USER_FORM_MESSAGES,
  userFormSchema,
  userInvitedMessage,
  userUpdatedMessage,
} from './access.js';

const messagesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('user administration contracts', () => {
  it('shows the highest-ranked of admin, editor and viewer, viewer when none', () => {
    expect(highestFormRole(['viewer', 'admin', 'editor'])).toBe('admin');
    expect(highestFormRole(['commander', 'editor'])).toBe('editor');
    expect(highestFormRole(['responder'])).toBe('viewer');
    expect(highestFormRole([])).toBe('viewer');
  });

  it("replaces admin, editor and viewer with the form's role and keeps the incident roles", () => {
    expect(rolesAfterFormRole(['admin', 'commander'], 'editor')).toEqual(['editor', 'commander']);
    expect(rolesAfterFormRole(['viewer', 'editor'], 'viewer')).toEqual(['viewer']);
    expect(rolesAfterFormRole([], 'admin')).toEqual(['admin']);
    expect(rolesAfterFormRole(['responder'], 'responder')).toEqual(['responder']);
  });

  it('validates the user form with the texts of spec 1 section 5', () => {
    expect(messagesOf(userFormSchema.safeParse({ firstName: '', lastName: ' ', email: '', role: '' }))).toEqual({
      firstName: USER_FORM_MESSAGES.firstName,
      lastName: USER_FORM_MESSAGES.lastName,
      email: USER_FORM_MESSAGES.email,
      role: USER_FORM_MESSAGES.role,
    });
    expect(
      messagesOf(userFormSchema.safeParse({ firstName: 'A', lastName: 'B', email: 'nope', role: 'editor' })),
    ).toEqual({
      email: 'Entered value does not match email format',
    });
    expect(
      userFormSchema.safeParse({ firstName: 'A', lastName: 'B', email: 'a@b.co', role: 'commander' }).success,
    ).toBe(false);
    expect(
      userFormSchema.parse({ firstName: ' Ada ', lastName: 'L', email: ' ada@example.com ', role: 'admin' }),
    ).toEqual({
      firstName: 'Ada',
      lastName: 'L',
      email: 'ada@example.com',
      role: 'admin',
    });
  });

  it('lets an invite omit the role, and bounds every field', () => {
    expect(inviteUserBodySchema.safeParse({ firstName: 'A', lastName: 'B', email: 'a@b.co' }).success).toBe(true);
    expect(inviteUserBodySchema.safeParse({ firstName: 'A'.repeat(101), lastName: 'B', email: 'a@b.co' }).success).toBe(
      false,
    );
    expect(updateRoleBodySchema.safeParse({ roles: ['admin', 'root'] }).success).toBe(false);
    expect(updateRoleBodySchema.safeParse({ roles: [] }).success).toBe(true);
  });

  it('words the toasts as the spec does', () => {
    expect(userInvitedMessage('Grace Hopper')).toBe('Grace Hopper invited successfully');
    expect(userUpdatedMessage('Grace Hopper')).toBe('Grace Hopper updated successfully');
    expect(USER_FORM_MESSAGES.deleted).toBe('user deleted successfully');
  });
});

describe('feature flag contracts', () => {
  it("asks for name and value with 'please provide all details'", () => {
    expect(messagesOf(featureFlagFormSchema.safeParse({ name: ' ', value: '' }))).toEqual({
      name: FEATURE_FLAG_MESSAGES.required,
      value: FEATURE_FLAG_MESSAGES.required,
    });
    expect(FEATURE_FLAG_MESSAGES.localReadOnly).toBe('Cannot edit local feature flags');
  });

  it('reports a value as boolean, number or string', () => {
    expect(propertyType('true')).toBe('boolean');
    expect(propertyType(' False')).toBe('boolean');
    expect(propertyType('42')).toBe('number');
    expect(propertyType('1.5')).toBe('number');
    expect(propertyType('')).toBe('string');
    expect(propertyType('15m')).toBe('string');
  });
});

describe('the rows the Users page reads', () => {
  const id = '0192a5d4-1111-7000-8000-000000000001';

  it('reads people_roles rows, with no role as an empty list, and refuses unknown roles', () => {
    expect(peopleRolesResponseSchema.parse([{ id, name: 'Ada', email: 'ada@example.com', roles: [] }])).toEqual([
      { id, name: 'Ada', email: 'ada@example.com', roles: [] },
    ]);
    expect(peopleRolesResponseSchema.safeParse([{ id, name: 'Ada', email: null, roles: ['owner'] }]).success).toBe(
      false,
    );
  });

  it('reads identities whose traits may lack a name', () => {
    const [row] = identitiesResponseSchema.parse([
      { id, state: 'active', traits: { email: 'ada@example.com' }, created_at: '2024-10-01T10:00:00Z' },
    ]);
    expect(row?.traits.name).toBeUndefined();
  });
});
