import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildIncidentTestApp, insertIncidentCheck, type IncidentTestApp } from '../../../test/incident-helpers.js';
import { eventually } from '../../../test/notification-helpers.js';
import { createJobs } from '../../jobs/jobs.js';
import { incidentRuleApplier } from './incident-rule-cli.js';
import { createIncidentRules } from './incident-rules.js';
import { createIncidentRulesRepository } from './incident-rules-repository.js';
import { createIncidentsRepository } from './incidents-repository.js';

/*
 * Incident rules on real PostgreSQL: a component turning unhealthy (component.unhealthy through
 * the queue), an insight of a severity (the sweep), a check that must fail N times in a row,
 * breakOnMatch, auto-resolve turned off, and `lookout apply -f` of an IncidentRule document.
 */

let testApp: IncidentTestApp;
let admin: TestUser;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(admin),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

async function addRule(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await call('POST', '/api/db/incident_rules', { name, spec, created_by: admin.id });
  expect(response.statusCode, response.body).toBe(201);
  return response.json()[0].id as string;
}

const incidentsOf = async (ruleId: string) =>
  (
    await testApp.database.pool.query<{ id: string; title: string; severity: string; status: string }>(
      `SELECT id, title, severity, status FROM incidents WHERE incident_rule_id = $1 ORDER BY created_at`,
      [ruleId],
    )
  ).rows;

beforeAll(async () => {
  testApp = await buildIncidentTestApp();
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@example.com',
    roles: ['admin'],
  });
}, 120_000);
afterAll(() => testApp?.close());

describe('incident rules', () => {
  it('open an incident when a component turns unhealthy, with topology evidence', async () => {
    const pool = testApp.database.pool;
    const ruleId = await addRule('databases', {
      components: [{ type: 'database' }],
      template: { severity: 'critical' },
    });
    const other = await addRule('later', { components: [{}], priority: -1 });
    await addRule('first', { components: [{ name: 'orders-*' }], priority: 5, breakOnMatch: true });
    const component = (
      await pool.query<{ id: string }>(
        `INSERT INTO components (name, type, status, health, external_id) VALUES ('orders-db', 'database', 'healthy', 'healthy', 'orders-db')
         RETURNING id`,
      )
    ).rows[0]!.id;
    await pool.query(`UPDATE components SET health = 'unhealthy', status = 'unhealthy' WHERE id = $1`, [component]);
    const firstRule = (await pool.query<{ id: string }>(`SELECT id FROM incident_rules WHERE name = 'first'`)).rows[0]!
      .id;
    const opened = await eventually(async () => {
      const rows = await incidentsOf(firstRule);
      return rows.length > 0 ? rows : undefined;
    });
    expect(opened[0]).toMatchObject({ title: 'orders-db is unhealthy', severity: 'low', status: 'open' });
    // breakOnMatch: 'first' (priority 5) matched, so neither 'databases' nor 'later' opened one.
    expect(await incidentsOf(ruleId)).toEqual([]);
    expect(await incidentsOf(other)).toEqual([]);
    const evidence = await pool.query(
      `SELECT e.type, e.component_id, e.definition_of_done, e.script FROM evidences e
       JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1`,
      [opened[0]!.id],
    );
    expect(evidence.rows).toEqual([
      { type: 'topology', component_id: component, definition_of_done: true, script: "component.status == 'healthy'" },
    ]);
  });

  it('open an incident for an open insight of a severity on the sweep, once', async () => {
    const pool = testApp.database.pool;
    const ruleId = await addRule('security insights', {
      insights: [{ type: 'AWS::*' }],
      filter: { severity: ['critical'], category: ['security'] },
      template: { title: '{name}: {message}', type: 'security', severity: 'high' },
      autoResolve: { enabled: false },
    });
    const config = (
      await pool.query<{ id: string }>(
        `INSERT INTO config_items (name, type, config_class, external_id) VALUES ('bucket', 'AWS::S3::Bucket', 'Bucket', ARRAY['b'])
         RETURNING id`,
      )
    ).rows[0]!.id;
    await pool.query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message)
       VALUES ($1, 'public', 'security', 'critical', 'open', 'public read'), ($1, 'cost', 'cost', 'low', 'open', 'idle')`,
      [config],
    );
    const run = await call('POST', `/api/incidents/rules/${ruleId}/run`);
    expect(run.json()).toMatchObject({ ran: true, matched: 1 });
    expect(await incidentsOf(ruleId)).toEqual([
      expect.objectContaining({ title: 'bucket: public read', severity: 'high' }),
    ]);
    expect((await call('POST', `/api/incidents/rules/${ruleId}/run`)).json()).toMatchObject({ matched: 1, opened: [] });

    // Resolved insight, definition of done complete, but this rule does not auto-resolve.
    await pool.query(`UPDATE config_analysis SET status = 'resolved' WHERE config_id = $1`, [config]);
    await call('POST', '/api/incidents/definition-of-done/evaluate');
    const [incident] = await incidentsOf(ruleId);
    const dod = (await call('GET', `/api/incidents/${incident!.id}/definition-of-done`)).json();
    expect(dod).toMatchObject({ complete: true, status: 'open' });
  });

  it('wait for a check to fail the required times in a row', async () => {
    const pool = testApp.database.pool;
    const ruleId = await addRule('flaky', { checks: [{ name: 'flaky-*' }], filter: { failures: 3 } });
    const checkId = await insertIncidentCheck(pool, 'flaky-api');
    const fail = (minutesAgo: number) =>
      pool.query(
        `INSERT INTO check_statuses (check_id, time, status) VALUES ($1, now() - make_interval(mins => $2), false)`,
        [checkId, minutesAgo],
      );
    await pool.query(
      `INSERT INTO check_statuses (check_id, time, status) VALUES ($1, now() - interval '10 minutes', true)`,
      [checkId],
    );
    await fail(3);
    await fail(2);
    await pool.query(`UPDATE checks SET status = 'unhealthy' WHERE id = $1`, [checkId]);
    expect((await call('POST', `/api/incidents/rules/${ruleId}/run`)).json()).toMatchObject({ matched: 0, opened: [] });
    await fail(1);
    const run = (await call('POST', `/api/incidents/rules/${ruleId}/run`)).json();
    expect(run).toMatchObject({ matched: 1 });
    expect(run.opened).toHaveLength(1);
    expect(await incidentsOf(ruleId)).toEqual([expect.objectContaining({ title: 'flaky-api is failing' })]);
  });

  it('are applied from IncidentRule documents, validated and read-only in the console', async () => {
    const pool = testApp.database.pool;
    const applier = incidentRuleApplier({ pool, logger: testApp.composed.app.log as never });
    expect(
      await applier.apply(
        { kind: 'IncidentRule', metadata: { name: 'from-file' }, spec: { checks: [{ name: 'x' }] } },
        'ConfigFile',
      ),
    ).toBe('incident rule from-file created');
    expect(
      await applier.apply(
        { kind: 'IncidentRule', metadata: { name: 'from-file' }, spec: { components: [{}] } },
        'ConfigFile',
      ),
    ).toBe('incident rule from-file configured');
    await expect(
      applier.apply(
        { kind: 'IncidentRule', metadata: { name: 'bad' }, spec: { filter: { failures: 'x' } } },
        'ConfigFile',
      ),
    ).rejects.toThrow(/invalid IncidentRule: spec\.filter\.failures/);
    const row = (await pool.query<{ id: string }>(`SELECT id FROM incident_rules WHERE name = 'from-file'`)).rows[0]!;
    const edit = await call('PATCH', `/api/db/incident_rules?id=eq.${row.id}`, { spec: {} });
    expect(edit.statusCode).toBe(403);
    const list = await call(
      'GET',
      '/api/db/incident_rules_with_status?select=name,source,job_status&deleted_at=is.null&order=name.asc',
    );
    expect(list.json()).toEqual(
      expect.arrayContaining([{ name: 'from-file', source: 'ConfigFile', job_status: null }]),
    );
  });

  it('keep the responder progress steps in order', async () => {
    const pool = testApp.database.pool;
    const incident = (await call('POST', '/api/incidents', { title: 'progress' })).json();
    const responder = await call('POST', '/api/db/responders?select=*', {
      type: 'person',
      incident_id: incident.id,
      person_id: admin.id,
      properties: { responderType: 'person' },
    });
    const id = responder.json()[0].id as string;
    const closed = await call('PATCH', `/api/db/responders?id=eq.${id}`, { close_time: '2026-01-01T10:00:00Z' });
    expect(closed.json()[0]).toMatchObject({
      acknowledge_time: expect.stringContaining('2026-01-01'),
      signoff_time: expect.stringContaining('2026-01-01'),
    });
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM responders WHERE id = $1`, [id]);
    expect(rows[0].n).toBe(1);
  });

  it('handle an event on the pass connection alone, so passes cannot drain the pool waiting for each other', async () => {
    // Every query outside the pass's transaction would fail: the pool hands out nothing.
    const noPool = {
      connect: () => Promise.reject(new Error('took a second connection')),
      query: () => Promise.reject(new Error('took a second connection')),
    } as unknown as pg.Pool;
    const logger = pino({ level: 'silent' });
    const rules = createIncidentRules({
      pool: noPool,
      logger,
      jobs: createJobs({ pool: noPool, logger }),
      rules: createIncidentRulesRepository(noPool),
      incidents: createIncidentsRepository(noPool),
    });
    // All in one transaction never committed, so the app's own consumers never see the rows.
    const tx = await testApp.database.pool.connect();
    try {
      await tx.query('BEGIN');
      const rule = await tx.query<{ id: string }>(
        `INSERT INTO incident_rules (name, spec, created_by) VALUES ('one connection', $1, $2) RETURNING id`,
        [JSON.stringify({ components: [{ name: 'ledger-*' }] }), admin.id],
      );
      const component = await tx.query<{ id: string }>(
        `INSERT INTO components (name, type, status, health, external_id)
         VALUES ('ledger-db', 'database', 'unhealthy', 'unhealthy', 'ledger-db') RETURNING id`,
      );
      const componentId = component.rows[0]!.id;
      const event = {
        id: 'e1',
        name: 'component.unhealthy',
        eventId: componentId,
        properties: {},
        error: null,
        delayMs: null,
        createdAt: new Date(),
        lastAttempt: null,
        attempts: 0,
        priority: 0,
      };
      // Earlier tests' catch-all rules match too; this test's rule opened one of these.
      const opened = await rules.onEvent(event, tx);
      const ruleId = rule.rows[0]!.id;
      const mine = await tx.query<{ incident_id: string }>(
        `SELECT incident_id FROM incidents WHERE incident_rule_id = $1`,
        [ruleId],
      );
      expect(mine.rows).toHaveLength(1);
      expect(opened).toContain(mine.rows[0]!.incident_id);
      const runs = await tx.query(
        `SELECT status, success_count, details->>'opened' AS opened FROM job_history
         WHERE name = 'IncidentRule' AND resource_type = 'incident_rule' AND resource_id = $1`,
        [ruleId],
      );
      expect(runs.rows).toEqual([{ status: 'SUCCESS', success_count: 1, opened: mine.rows[0]!.incident_id }]);
      // A second event for the same component finds the open incident: a deduplicated run.
      expect(await rules.onEvent(event, tx)).toEqual([]);
    } finally {
      await tx.query('ROLLBACK');
      tx.release();
    }
  });
});
