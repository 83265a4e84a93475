import { randomUUID } from 'node:crypto';
import {
  ACTIONS,
  can,
  DATA_API_RELATIONS,
  RESOURCES,
  ROLES,
  type Action,
  type Resource,
  type Role,
} from '@lookout/contracts';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRouteAccess } from '../src/modules/access/route-access.js';
import type { RouteAccess, RouteAccessEntry } from '../src/modules/access/route-access-fns.js';
import { bearer, createSignedInUser, type TestUser } from './access-helpers.js';
import { buildTestApp, type TestApp } from './build-test-app.js';

/**
 * THE permission matrix (issue 5): every caller (each role, a user without roles, and
 * nobody) calls every /api route the application registered and every /api/db relation with
 * a read and a write, with real sessions, and the answers are compared with spec 1 section
 * 6. Routes are enumerated from Fastify itself, so a route added later is probed here
 * without anyone touching this file; a route that declares no access cannot even be
 * registered, so buildApp (and this file) fails until it does.
 *
 * "Refused" means 401 (nobody signed in) or 403 (roles lack the action); any other status
 * (200, 201, 400, 404, 405, 409 ...) means the access check let the call through. Bodies are
 * empty or invalid on purpose: the matrix tests who gets through, not what the route does.
 */

/**
 * Spec 1 section 6, transcribed on its own from the spec's table (not from PERMISSIONS), so
 * a slip in the shared table shows up as a difference here.
 */
const except = (...excluded: Resource[]) => RESOURCES.filter((resource) => !excluded.includes(resource));
const SPEC_TABLE: Record<Role, Record<Action, readonly Resource[]>> = {
  // admin | everything | everything
  admin: { read: RESOURCES, write: RESOURCES },
  // editor | everything | everything except connections, identities and rbac
  editor: { read: RESOURCES, write: except('connections', 'identities', 'rbac') },
  // commander, responder | everything except rbac, identities and connections | only responder, incident, evidences, comments
  commander: {
    read: except('rbac', 'identities', 'connections'),
    write: ['responder', 'incident', 'evidences', 'comments'],
  },
  responder: {
    read: except('rbac', 'identities', 'connections'),
    write: ['responder', 'incident', 'evidences', 'comments'],
  },
  // viewer | same set as commander | nothing
  viewer: { read: except('rbac', 'identities', 'connections'), write: [] },
};

/** "A user with no roles is treated as viewer ... Permissions are the union across the user's roles." */
function specAllows(roles: readonly Role[], resource: Resource, action: Action): boolean {
  const effective = roles.length === 0 ? (['viewer'] as const) : roles;
  return effective.some((role) => SPEC_TABLE[role][action].includes(resource));
}

/**
 * The access each /api route must have, from the specs (and, where they say nothing about a
 * route, from the backend reference the spec was written from). It is written here, apart
 * from the routes' own declarations, so a route that declares the wrong resource fails this
 * file; a route missing here fails too, until its author adds the line with the access the
 * spec gives it. Routes the Kratos public API and the OpenAPI docs add are not listed: they
 * need no declaration (docs/access.md).
 */
const RUN_NOW_ROLES: readonly Role[] = ['admin', 'editor', 'responder', 'commander'];
const SPEC_ROUTE_ACCESS: Record<string, RouteAccess> = {
  // spec 1 section 7 / README: liveness and the version line are shown before sign-in.
  'GET /api/health': 'public',
  'GET /api/about': 'public',
  // Lookout's own (the specs name no such route): the sign-in pages (spec 1 section 2.6) read
  // whether sign-up is open and the OIDC providers before anyone is signed in.
  'GET /api/auth/config': 'public',
  // spec 1 sections 2 and 7: the caller's own identity and the flags, read by every user at start.
  'GET /api/auth/whoami': 'authenticated',
  'GET /api/properties': 'authenticated',
  // The data API: any signed-in caller reaches the engine, which checks each relation
  // (probed relation by relation below).
  'GET /api/db/*': 'authenticated',
  'POST /api/db/*': 'authenticated',
  'PATCH /api/db/*': 'authenticated',
  'PUT /api/db/*': 'authenticated',
  'DELETE /api/db/*': 'authenticated',
  'OPTIONS /api/db/*': 'authenticated',
  // spec 1 section 6: "Write on identities gates the Users table actions, Invite User and its
  // form submit"; the Users page reads identities (route table: read on identities).
  'POST /api/auth/invite_user': { resource: 'identities', action: 'write' },
  'POST /api/people/update': { resource: 'identities', action: 'write' },
  'DELETE /api/people/:id': { resource: 'identities', action: 'write' },
  'GET /api/.ory/admin/identities': { resource: 'identities', action: 'read' },
  'GET /api/.ory/admin/identities/:id': { resource: 'identities', action: 'read' },
  'POST /api/.ory/admin/identities': { resource: 'identities', action: 'write' },
  'PUT /api/.ory/admin/identities/:id': { resource: 'identities', action: 'write' },
  'DELETE /api/.ory/admin/identities/:id': { resource: 'identities', action: 'write' },
  'DELETE /api/.ory/admin/identities/:id/sessions': { resource: 'identities', action: 'write' },
  'POST /api/.ory/admin/recovery/code': { resource: 'identities', action: 'write' },
  'POST /api/.ory/admin/recovery/link': { resource: 'identities', action: 'write' },
  // Lookout's own rule (the specs name no courier route; Kratos's admin API has it): the email
  // outbox's bodies carry recovery codes and invitation links, which sign their recipient in,
  // so reading them is as strong as making a recovery link: write on identities (admins only).
  'GET /api/.ory/admin/courier/messages': { resource: 'identities', action: 'write' },
  'GET /api/.ory/admin/courier/messages/:id': { resource: 'identities', action: 'write' },
  // The same admin API with an external Kratos (KRATOS_PUBLIC_URL): a proxy to KRATOS_ADMIN_URL
  // (or a 503 naming it), one route per action, with the access of the built-in routes above.
  'GET /api/.ory/admin/*': { resource: 'identities', action: 'read' },
  'POST /api/.ory/admin/*': { resource: 'identities', action: 'write' },
  'PUT /api/.ory/admin/*': { resource: 'identities', action: 'write' },
  'PATCH /api/.ory/admin/*': { resource: 'identities', action: 'write' },
  'DELETE /api/.ory/admin/*': { resource: 'identities', action: 'write' },
  // Kratos's courier behind that proxy: admins only, as the built-in outbox above.
  'GET /api/.ory/admin/courier/*': { resource: 'identities', action: 'write' },
  // spec 1 section 7: POST /{id}/update_role on the rbac client (backend-model 5: rbac update).
  'POST /api/rbac/:id/update_role': { resource: 'rbac', action: 'write' },
  // spec 2 section 6: the health dashboard reads canaries; "Add health check: write on
  // canaries"; "Run Now on a check: roles admin, editor, responder, commander".
  'GET /api/canary/api/summary': { resource: 'canaries', action: 'read' },
  // ui-calls section 3.3 / backend-model section 5: the check drawer's graph and the evidence
  // cards' check go through the canary proxy, which needs canaries with the method's action.
  'GET /api/canary/api/graph': { resource: 'canaries', action: 'read' },
  'GET /api/canary/api': { resource: 'canaries', action: 'read' },
  // ui-calls section 3.16 / backend-model section 5: `/about` and `/schemas/*` need no RBAC.
  'GET /api/canary/about': 'public',
  'GET /api/schemas/:file': 'public',
  'POST /api/canary/apply': { resource: 'canaries', action: 'write' },
  'POST /api/canary/run/check/:id': { roles: RUN_NOW_ROLES },
  // issue 12 ("Managed under Settings ... write: admin"; spec 1 section 6 leaves secrets to
  // admins): the secret store is read and written with write on connections, which only admins
  // have (docs/secrets.md).
  'GET /api/secrets': { resource: 'connections', action: 'write' },
  'GET /api/secrets/': { resource: 'connections', action: 'write' },
  'POST /api/secrets': { resource: 'connections', action: 'write' },
  'POST /api/secrets/': { resource: 'connections', action: 'write' },
  'GET /api/secrets/:kind/:namespace/:name': { resource: 'connections', action: 'write' },
  'PUT /api/secrets/:kind/:namespace/:name': { resource: 'connections', action: 'write' },
  'DELETE /api/secrets/:kind/:namespace/:name': { resource: 'connections', action: 'write' },
  // ui-calls section 3.12 / backend-model section 5: testing a connection is `connection:update`,
  // write on connections (only admins).
  'POST /api/connection/test/:id': { resource: 'connections', action: 'write' },
  // ui-calls section 3.5: the catalog's summary and changes are reads, guarded like every
  // catalog relation by the config_scrapers resource (spec 1 section 6).
  'POST /api/catalog/summary': { resource: 'config_scrapers', action: 'read' },
  'POST /api/catalog/changes': { resource: 'config_scrapers', action: 'read' },
  // ui-calls section 3.16 (backend model: catalog read): the pickers' resource search reads
  // checks, components and config items, guarded like the catalog by config_scrapers read.
  'POST /api/resources/search': { resource: 'config_scrapers', action: 'read' },
  // spec 1 section 2.3: every signed-in person downloads a kubeconfig for themselves (its
  // token carries that person's roles), and lists and revokes only their own tokens.
  'GET /api/kubeconfig': 'authenticated',
  'GET /api/kubeconfig/tokens': 'authenticated',
  'DELETE /api/kubeconfig/tokens/:id': 'authenticated',
  // ui-calls sections 3.4 and 3.16: the topology fetch (at the proxied path and without the
  // proxy prefix) and the snapshot download are reads of topologies (spec 1 section 6).
  'GET /api/canary/api/topology': { resource: 'topologies', action: 'read' },
  'GET /api/topology': { resource: 'topologies', action: 'read' },
  'GET /api/snapshot/topology/:id': { resource: 'topologies', action: 'read' },
  // 'What changed' before a component turned unhealthy (issue 14 item 7) reads topologies too.
  'GET /api/topology/what-changed/:id': { resource: 'topologies', action: 'read' },
  // ui-calls 3.15: a component's log lines are a read of the component (docs/logs.md).
  'POST /api/logs': { resource: 'topologies', action: 'read' },
  // ui-calls section 3.13: adding a silence needs write on database (spec 1 section 6); the
  // traces ("why did or didn't this notify?", Lookout's own) are reads of notifications.
  'POST /api/notification/silence': { resource: 'database', action: 'write' },
  'GET /api/notification/traces': { resource: 'notifications', action: 'read' },
  'GET /api/notification/traces/:id': { resource: 'notifications', action: 'read' },
  // Playbooks (ui-calls 3.7; spec 2 section 6): reads need read on playbooks, starting or
  // changing a run write on playbook_runs; a webhook is checked by the playbook's own auth.
  'GET /api/playbook/list': { resource: 'playbooks', action: 'read' },
  'POST /api/playbook/:id/params': { resource: 'playbooks', action: 'read' },
  'POST /api/playbook/run': { resource: 'playbook_runs', action: 'write' },
  'POST /api/playbook/run/dry-run': { resource: 'playbook_runs', action: 'write' },
  'POST /api/playbook/run/approve/:run_id': { resource: 'playbook_runs', action: 'write' },
  'POST /api/playbook/run/cancel/:run_id': { resource: 'playbook_runs', action: 'write' },
  'POST /api/playbook/run/rerun/:run_id': { resource: 'playbook_runs', action: 'write' },
  'GET /api/playbook/run/:run_id/logs': { resource: 'playbook_runs', action: 'read' },
  'POST /api/playbook/webhook/:path': 'public',
  // incidents (docs/incidents.md): spec 1 section 6 gives write on incident to commanders and
  // responders; running an incident rule is a settings action (database).
  'POST /api/incidents': { resource: 'incident', action: 'write' },
  'GET /api/incidents/:id/definition-of-done': { resource: 'incident', action: 'read' },
  'POST /api/incidents/definition-of-done/evaluate': { resource: 'incident', action: 'write' },
  'GET /api/incidents/:id/timeline': { resource: 'incident', action: 'read' },
  'GET /api/incidents/:id/export': { resource: 'incident', action: 'read' },
  'POST /api/incidents/rules/:id/run': { resource: 'database', action: 'write' },
  // spec 2 section 6: the agents page's save area needs write on agents; creating an agent
  // and issuing its tokens are that save (ui-calls 3.8).
  'POST /api/agent/generate': { resource: 'agents', action: 'write' },
  'POST /api/agent/token': { resource: 'agents', action: 'write' },
};

/** Registered /api routes missing from SPEC_ROUTE_ACCESS, or declared otherwise than it says. */
function declarationProblems(routes: readonly RouteAccessEntry[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    if (route.method === 'HEAD' || route.implicit !== undefined) continue;
    const key = `${route.method} ${route.url}`;
    const expected = SPEC_ROUTE_ACCESS[key];
    if (expected === undefined) {
      problems.push(
        `${key} (declared ${JSON.stringify(route.access)}) is not in SPEC_ROUTE_ACCESS of permission-matrix.test.ts: add it with the access the spec gives it`,
      );
    } else if (!sameAccess(expected, route.access)) {
      problems.push(`${key} declares ${JSON.stringify(route.access)} but the spec gives ${JSON.stringify(expected)}`);
    }
  }
  return problems;
}

const sameAccess = (a: RouteAccess, b: RouteAccess): boolean => {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if ('roles' in a || 'roles' in b) {
    return 'roles' in a && 'roles' in b && [...a.roles].sort().join() === [...b.roles].sort().join();
  }
  return a.resource === b.resource && a.action === b.action;
};

type Caller = { label: string; user?: TestUser; roles: readonly Role[] | null };
type Outcome = 'allowed' | 401 | 403;

function expectedOutcome(access: RouteAccess, caller: Caller, method: string, url: string): Outcome {
  // The data API route lets any signed-in caller reach the engine, which checks the relation
  // the request names (here `people`, probed by a filter that matches no row).
  if (url === DATA_API_PROBE && caller.roles !== null) {
    const action = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? 'read' : 'write';
    return specAllows(caller.roles, DATA_API_RELATIONS.people, action) ? 'allowed' : 403;
  }
  if (access === 'public') return 'allowed';
  if (caller.roles === null) return 401;
  if (access === 'authenticated') return 'allowed';
  if ('roles' in access) {
    const effective: readonly Role[] = caller.roles.length === 0 ? ['viewer'] : caller.roles;
    return effective.some((role) => access.roles.includes(role)) ? 'allowed' : 403;
  }
  return specAllows(caller.roles, access.resource, access.action) ? 'allowed' : 403;
}

const outcomeOf = (status: number): Outcome => (status === 401 || status === 403 ? status : 'allowed');

/** A data API call that touches no row, whatever its method. */
const DATA_API_PROBE = `/api/db/people?id=eq.${randomUUID()}`;

/** A concrete URL for a registered route pattern: ids become fresh UUIDs. */
function concreteUrl(pattern: string): string {
  if (pattern === '/api/db/*') return DATA_API_PROBE;
  return pattern
    .replace(/:([A-Za-z_]+)/g, (_match, name: string) => (name === 'provider' ? 'matrix' : randomUUID()))
    .replace(/\*$/, 'matrix-probe');
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('permission matrix: every route and every /api/db relation, each role, real sessions', () => {
  let testApp: TestApp;
  const callers: Caller[] = [{ label: 'nobody signed in', roles: null }];
  /** Probes answered 5xx: every refusal must be a 4xx that says why (ARCHITECTURE section 3). */
  const serverErrors: string[] = [];

  beforeAll(async () => {
    testApp = await buildTestApp();
    const signIns: { label: string; roles: Role[] }[] = [
      ...ROLES.map((role) => ({ label: role, roles: [role] })),
      { label: 'no roles', roles: [] },
    ];
    for (const { label, roles } of signIns) {
      const user = await createSignedInUser(testApp.app, testApp.database.pool, {
        email: `matrix-${label.replace(/\s+/g, '-')}@example.com`,
        roles,
      });
      callers.push({ label, user, roles });
    }
  });
  afterAll(() => testApp?.close());

  it('uses a PERMISSIONS table with zero differences from spec 1 section 6', () => {
    const differences: string[] = [];
    const roleSets: Role[][] = [...ROLES.map((role) => [role]), [], ['viewer', 'responder'], ['editor', 'commander']];
    for (const roles of roleSets) {
      for (const resource of RESOURCES) {
        for (const action of ACTIONS) {
          if (can(roles, resource, action) !== specAllows(roles, resource, action)) {
            differences.push(`[${roles.join(',')}] ${action} ${resource}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('enumerates the registered routes from Fastify, including the access module and the data API', () => {
    const routes = testApp.app.routeAccess.routes().map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'GET /api/properties',
        'POST /api/rbac/:id/update_role',
        'POST /api/auth/invite_user',
        'POST /api/people/update',
        'DELETE /api/people/:id',
        'GET /api/db/*',
        'POST /api/db/*',
        'GET /api/.ory/admin/identities',
      ]),
    );
  });

  it('finds every registered /api route declared with the access the spec gives it', () => {
    expect(declarationProblems(testApp.app.routeAccess.routes())).toEqual([]);
  });

  it('finds the routes of an external Kratos (with and without KRATOS_ADMIN_URL) declared as the spec gives them', async () => {
    // Nothing listens there: building the app asks Kratos nothing, and these are not called.
    const kratos = 'http://127.0.0.1:1';
    for (const identity of [{ kratosPublicUrl: kratos, kratosAdminUrl: kratos }, { kratosPublicUrl: kratos }]) {
      const external = await buildTestApp({ identity });
      try {
        const routes = external.app.routeAccess.routes();
        expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(
          expect.arrayContaining([
            'GET /api/.ory/admin/*',
            'DELETE /api/.ory/admin/*',
            'GET /api/.ory/admin/courier/*',
            'POST /api/auth/invite_user',
          ]),
        );
        // The public API is the proxy's one wildcard route, which authenticates nobody itself.
        expect(routes.filter((route) => route.url === '/api/.ory/*').map((route) => route.implicit)).toEqual(
          expect.arrayContaining(['kratos-public-api']),
        );
        expect(declarationProblems(routes)).toEqual([]);
      } finally {
        await external.close();
      }
    }
  });

  it('answers every registered /api route as the spec allows, for every caller', async () => {
    const routes = testApp.app.routeAccess
      .routes()
      // HEAD twins share their GET route's declaration; the Kratos public API under
      // /api/.ory authenticates its callers itself (identity tests cover it), so a 401
      // from, say, /sessions/whoami is its answer, not the access check's. So does the
      // Kubernetes API under /api/kubernetes (kubeconfig tokens; kubectl.test.ts covers it).
      .filter(
        (route) =>
          route.method !== 'HEAD' && route.implicit !== 'kratos-public-api' && route.implicit !== 'kubernetes-api',
      );
    expect(routes.length).toBeGreaterThan(10);

    const differences: string[] = [];
    for (const route of routes) {
      const url = concreteUrl(route.url);
      for (const caller of callers) {
        const response = await testApp.app.inject({
          method: route.method as 'GET',
          url,
          headers: {
            ...bearer(caller.user),
            ...(BODY_METHODS.has(route.method) ? { 'content-type': 'application/json' } : {}),
          },
          ...(BODY_METHODS.has(route.method) && route.method !== 'DELETE' ? { payload: '{}' } : {}),
        });
        // The spec's access when the route is listed (a wrong declaration then shows up as a
        // wrong answer too), else what the route declares.
        const access = SPEC_ROUTE_ACCESS[`${route.method} ${route.url}`] ?? route.access;
        const expected = expectedOutcome(access, caller, route.method, url);
        const actual = outcomeOf(response.statusCode);
        if (expected !== actual) {
          differences.push(
            `${caller.label}: ${route.method} ${url} (declared ${JSON.stringify(route.access)}) expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
          );
        }
        if (response.statusCode >= 500)
          serverErrors.push(`${caller.label}: ${route.method} ${url} → ${response.statusCode}`);
      }
    }
    expect(differences).toEqual([]);
  });

  // Every allow-listed relation (over 70 with the catalog's) by every caller, read and write.
  it('answers a read (GET) and a write (POST) of every allow-listed /api/db relation as the spec allows', async () => {
    const differences: string[] = [];
    for (const [relation, resource] of Object.entries(DATA_API_RELATIONS) as [string, Resource][]) {
      for (const caller of callers) {
        for (const action of ACTIONS) {
          const response = await testApp.app.inject({
            method: action === 'read' ? 'GET' : 'POST',
            url: `/api/db/${relation}${action === 'read' ? '?limit=1' : ''}`,
            headers: {
              ...bearer(caller.user),
              ...(action === 'write' ? { 'content-type': 'application/json' } : {}),
            },
            ...(action === 'write' ? { payload: '{}' } : {}),
          });
          const expected: Outcome =
            caller.roles === null ? 401 : specAllows(caller.roles, resource, action) ? 'allowed' : 403;
          const actual = outcomeOf(response.statusCode);
          if (expected !== actual) {
            differences.push(
              `${caller.label}: ${action} ${relation} (${resource}) expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
          }
          if (response.statusCode >= 500) {
            serverErrors.push(
              `${caller.label}: ${action} /api/db/${relation} → ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(differences).toEqual([]);
  }, 180_000);

  it('guards the relations the spec names with the resource it gives them', () => {
    // spec 1 section 6: "feature_flags (as properties)"; the Users page lists identities
    // (read on identities); every role reads its own roles (people_roles).
    expect(DATA_API_RELATIONS.properties).toBe('feature_flags');
    expect(DATA_API_RELATIONS.identities).toBe('identities');
    for (const role of [...ROLES, undefined]) {
      expect(specAllows(role ? [role] : [], DATA_API_RELATIONS.people_roles, 'read')).toBe(true);
    }
  });

  it('answers none of those probes with a server error', () => {
    expect(serverErrors).toEqual([]);
  });

  it('refuses to register an /api route that declares no access, so a new route fails here until it does', async () => {
    const app = Fastify();
    registerRouteAccess(app);
    expect(() => app.get('/api/new-area/things', async () => [])).toThrow(/does not declare who may call it/);
    expect(() =>
      app.get(
        '/api/new-area/typo',
        { config: { rbac: { resource: 'incidents' as Resource, action: 'read' } } },
        async () => [],
      ),
    ).toThrow(/not a resource of spec 1 section 6/);
    // Outside /api (the web app) nothing needs declaring.
    expect(() => app.get('/health/checks', async () => 'page')).not.toThrow();
    await app.close();
  });
});
