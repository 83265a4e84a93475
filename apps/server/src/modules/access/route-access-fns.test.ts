import { describe, expect, it } from 'vitest';
import { decideAccess, declarationProblem, describeAccess, implicitAccess, isApiPath } from './route-access-fns.js';

describe('route access rules', () => {
  it('checks /api and everything under it, nothing else', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/db/*')).toBe(true);
    expect(isApiPath('/apiary')).toBe(false);
    expect(isApiPath('/settings/users')).toBe(false);
  });

  it('needs no declaration for the API docs and the Kratos public API, but does for the Kratos admin API', () => {
    expect(implicitAccess('/api/docs')).toBe('api-docs');
    expect(implicitAccess('/api/docs/json')).toBe('api-docs');
    expect(implicitAccess('/api/.ory/self-service/login/browser')).toBe('kratos-public-api');
    expect(implicitAccess('/api/kubernetes/apis/:group/:version')).toBe('kubernetes-api');
    expect(implicitAccess('/api/kubeconfig')).toBeUndefined();
    expect(implicitAccess('/api/.ory/admin/identities')).toBeUndefined();
    expect(implicitAccess('/api/docsearch')).toBeUndefined();
    expect(implicitAccess('/api/health')).toBeUndefined();
  });

  it('accepts the four kinds of declaration and explains a wrong one', () => {
    expect(declarationProblem('public', undefined)).toBeUndefined();
    expect(declarationProblem('authenticated', 'health')).toBeUndefined();
    expect(declarationProblem({ resource: 'identities', action: 'write' }, undefined)).toBeUndefined();
    expect(declarationProblem({ roles: ['admin', 'editor'] }, undefined)).toBeUndefined();
    expect(declarationProblem({ resource: 'users', action: 'write' }, undefined)).toMatch(/'users' is not a resource/);
    expect(declarationProblem({ resource: 'identities', action: 'delete' }, undefined)).toMatch(/read or write/);
    expect(declarationProblem({ roles: [] }, undefined)).toMatch(/non-empty list/);
    expect(declarationProblem({ roles: ['root'] }, undefined)).toMatch(/non-empty list/);
    expect(declarationProblem('everyone', undefined)).toMatch(/must be 'public'/);
    expect(declarationProblem('public', 'settings.people')).toMatch(/not a feature/);
  });

  it('lets anyone through public routes and any signed-in person through authenticated ones', () => {
    expect(decideAccess('public', null)).toBe('allow');
    expect(decideAccess('authenticated', null)).toBe('unauthenticated');
    expect(decideAccess('authenticated', [])).toBe('allow');
  });

  it('grants a declared action by the permission table, a person without roles being a viewer', () => {
    const writeIdentities = { resource: 'identities', action: 'write' } as const;
    expect(decideAccess(writeIdentities, null)).toBe('unauthenticated');
    expect(decideAccess(writeIdentities, ['editor'])).toBe('forbidden');
    expect(decideAccess(writeIdentities, ['editor', 'admin'])).toBe('allow');
    expect(decideAccess({ resource: 'canaries', action: 'read' }, [])).toBe('allow');
    expect(decideAccess({ resource: 'rbac', action: 'read' }, [])).toBe('forbidden');
  });

  it('grants a role list to its roles, treating no roles as viewer', () => {
    const runNow = { roles: ['admin', 'editor', 'responder', 'commander'] } as const;
    expect(decideAccess(runNow, ['responder'])).toBe('allow');
    expect(decideAccess(runNow, ['viewer'])).toBe('forbidden');
    expect(decideAccess(runNow, [])).toBe('forbidden');
    expect(decideAccess({ roles: ['viewer'] }, [])).toBe('allow');
  });

  it('describes a declaration for messages and docs', () => {
    expect(describeAccess({ resource: 'rbac', action: 'write' })).toBe('write on rbac');
    expect(describeAccess('authenticated')).toBe('any signed-in user');
    expect(describeAccess({ roles: ['admin', 'editor'] })).toBe('roles admin, editor');
  });
});
