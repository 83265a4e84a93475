import { describe, expect, it } from 'vitest';
import { RESOURCES } from './enums.js';
import { can, canAny } from './permissions.js';

describe('permission table (spec 1, section 6)', () => {
  it('lets an admin read and write everything', () => {
    for (const resource of RESOURCES) {
      expect(can(['admin'], resource, 'read')).toBe(true);
      expect(can(['admin'], resource, 'write')).toBe(true);
    }
  });

  it('lets an editor write everything except connections, identities and rbac', () => {
    const refused = RESOURCES.filter((resource) => !can(['editor'], resource, 'write'));
    expect(refused.sort()).toEqual(['connections', 'identities', 'rbac']);
    expect(RESOURCES.every((resource) => can(['editor'], resource, 'read'))).toBe(true);
  });

  it.each(['commander', 'responder'] as const)(
    'lets a %s read all but rbac, identities, connections and write only incident work',
    (role) => {
      expect(RESOURCES.filter((resource) => !can([role], resource, 'read')).sort()).toEqual([
        'connections',
        'identities',
        'rbac',
      ]);
      expect(RESOURCES.filter((resource) => can([role], resource, 'write')).sort()).toEqual([
        'comments',
        'evidences',
        'incident',
        'responder',
      ]);
    },
  );

  it('lets a viewer read what a commander reads and write nothing', () => {
    expect(RESOURCES.filter((resource) => can(['viewer'], resource, 'write'))).toEqual([]);
    expect(can(['viewer'], 'rbac', 'read')).toBe(false);
    expect(can(['viewer'], 'canaries', 'read')).toBe(true);
  });

  it('treats a user without roles as a viewer', () => {
    expect(can([], 'canaries', 'read')).toBe(true);
    expect(can([], 'canaries', 'write')).toBe(false);
  });

  it('grants the union over several roles', () => {
    expect(can(['viewer', 'responder'], 'incident', 'write')).toBe(true);
    expect(canAny(['viewer'], ['identities', 'canaries'], 'read')).toBe(true);
    expect(canAny(['viewer'], ['identities', 'rbac'], 'read')).toBe(false);
  });
});
