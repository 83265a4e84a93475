import { eventQueueSummaryRowSchema, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The event queue through /api/db exactly as the console calls it (spec 3 sections 2.9 and 3,
 * ui-calls section 3.11; migration 13): the Event Queue page's read of event_queue_summary and
 * failed_events, as real signed-in users of each role (every role reads `database`; nobody
 * writes the queue through the data API).
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

beforeAll(async () => {
  // No consumers run: the topology, incidents and notifications consumers would claim the
  // pending check events this test reads back as the page shows them.
  testApp = await buildTestApp({ background: false });
  const { app, database } = testApp;
  for (const role of ROLES) {
    users[role] = await createSignedInUser(app, database.pool, { email: `${role}@example.com`, roles: [role] });
  }
  await database.pool.query(
    `INSERT INTO event_queue (name, event_id, attempts, error, created_at, last_attempt) VALUES
       ('check.failed', gen_random_uuid(), 0, NULL, '2026-05-01T10:00:00Z', NULL),
       ('check.failed', gen_random_uuid(), 4, 'webhook answered 500', '2026-05-01T09:00:00Z', '2026-05-01T13:00:00Z'),
       ('check.failed', gen_random_uuid(), 1, 'webhook answered 500', '2026-05-01T11:00:00Z', '2026-05-01T11:00:01Z'),
       ('check.failed', gen_random_uuid(), 2, 'timeout', '2026-05-01T08:00:00Z', '2026-05-01T08:32:00Z'),
       ('check.passed', gen_random_uuid(), 0, NULL, '2026-05-01T12:00:00Z', NULL),
       ('config.created', gen_random_uuid(), 1, 'no scraper', '2026-05-02T00:00:00Z', '2026-05-02T00:00:01Z')`,
  );
});
afterAll(() => testApp.close());

describe('the Event Queue page through /api/db', () => {
  it('reads event_queue_summary ordered by last failure, with exactly the columns the page shows', async () => {
    const response = await call(users.admin, 'GET', '/api/db/event_queue_summary?order=last_failure.desc');
    expect(response.statusCode).toBe(200);
    const rows = response.json() as unknown[];
    for (const row of rows) expect(() => eventQueueSummaryRowSchema.strict().parse(row)).not.toThrow();
    // PostgreSQL puts rows without a failure first in a descending order, as PostgREST does.
    expect(rows).toEqual([
      {
        name: 'check.passed',
        pending: 1,
        failed: 0,
        average_attempts: null,
        first_failure: null,
        last_failure: null,
        most_common_error: null,
      },
      {
        name: 'config.created',
        pending: 0,
        failed: 1,
        average_attempts: 1,
        first_failure: '2026-05-02T00:00:00+00:00',
        last_failure: '2026-05-02T00:00:01+00:00',
        most_common_error: 'no scraper',
      },
      {
        name: 'check.failed',
        pending: 1,
        failed: 3,
        average_attempts: 2.33,
        first_failure: '2026-05-01T08:00:00+00:00',
        last_failure: '2026-05-01T13:00:00+00:00',
        most_common_error: 'webhook answered 500',
      },
    ]);
  });

  it.each(ROLES)('%s reads the summary and the failed events', async (role) => {
    expect((await call(users[role], 'GET', '/api/db/event_queue_summary?order=last_failure.desc')).statusCode).toBe(
      200,
    );
    const failed = await call(users[role], 'GET', '/api/db/failed_events?select=name,error,attempts&order=name.asc');
    expect(failed.statusCode).toBe(200);
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await call(undefined, 'GET', '/api/db/event_queue_summary')).statusCode).toBe(401);
    expect((await call(undefined, 'GET', '/api/db/failed_events')).statusCode).toBe(401);
  });

  it('keeps the views read-only: 405 with the reason for those who write the database, 403 for the others', async () => {
    for (const role of ['admin', 'editor'] as const) {
      const post = await call(users[role], 'POST', '/api/db/event_queue_summary', { name: 'check.failed' });
      expect(post.statusCode).toBe(405);
      expect(post.json()).toMatchObject({
        message:
          'event_queue_summary is read-only here; it summarises the event queue, which triggers and consumers change.',
      });
      expect((await call(users[role], 'DELETE', '/api/db/failed_events?name=eq.check.failed')).statusCode).toBe(405);
      expect(
        (await call(users[role], 'PATCH', '/api/db/failed_events?name=eq.check.failed', { attempts: 0 })).statusCode,
      ).toBe(405);
    }
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      expect((await call(users[role], 'DELETE', '/api/db/failed_events?name=eq.check.failed')).statusCode).toBe(403);
    }
    const { rows } = await testApp.database.pool.query('SELECT count(*)::int AS n FROM event_queue');
    expect(rows[0]).toEqual({ n: 6 });
    // The table itself is not on the allow-list.
    expect((await call(users.admin, 'GET', '/api/db/event_queue')).statusCode).toBe(404);
  });
});
