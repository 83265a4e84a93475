import { describe, expect, it } from 'vitest';
import { absentFeatures } from './absent-features';

describe('absentFeatures', () => {
  it('leaves nothing out when the server manages users', () => {
    expect(absentFeatures({ user_admin: true })).toEqual([]);
  });

  it('leaves the Users page out when the server cannot list or manage identities', () => {
    expect(absentFeatures({ user_admin: false })).toEqual(['settings.users']);
  });
});
