import { describe, expect, it } from 'vitest';
import { toUserListItems, userDisplayName } from './user-fns';

const ID = '0192a5d4-1111-7000-8000-000000000001';

describe('toUserListItems', () => {
  it('joins identities with their roles, and a person without a roles row has none', () => {
    const identity = {
      id: ID,
      state: 'active',
      traits: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } },
      created_at: '2024-10-01T10:00:00Z',
    };
    expect(
      toUserListItems([identity], [{ id: ID, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['editor'] }]),
    ).toEqual([
      {
        id: ID,
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        roles: ['editor'],
        state: 'active',
        createdAt: '2024-10-01T10:00:00Z',
      },
    ]);
    expect(toUserListItems([identity], [])[0]?.roles).toEqual([]);
  });

  it('names a user without a name by their email', () => {
    const [user] = toUserListItems(
      [{ id: ID, state: 'inactive', traits: { email: 'x@example.com' }, created_at: '2024-10-01T10:00:00Z' }],
      [],
    );
    expect(user?.name).toBe('x@example.com');
    expect(userDisplayName(' Ada ', '', 'a@b.c')).toBe('Ada');
  });
});
