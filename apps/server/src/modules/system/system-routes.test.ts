import { CANARY_CHECK_TYPES } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createDatabase } from '../../db/database.js';
import { findFreePort } from '../../db/free-port.js';
import { SERVER_VERSION } from '../../version.js';

describe('system routes', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(() => testApp.close());

  it('reports a healthy database with 200', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: { status: 'ok' } });
    expect(response.json().database.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('answers /api/about with the backend Version the user menu shows', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/about' });
    expect(response.statusCode).toBe(200);
    expect(response.json().Version).toBe(SERVER_VERSION);
    expect(Date.parse(response.json().Timestamp)).not.toBeNaN();
  });

  it('answers /api/canary/about as /api/about, where the original console reads the version', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/canary/about' });
    expect(response.statusCode).toBe(200);
    const about = await testApp.app.inject({ method: 'GET', url: '/api/about' });
    expect(response.json()).toEqual(about.json());
  });

  it('serves the JSON Schema of canary specs for YAML editors, without signing in', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/schemas/canary.spec.schema.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const schema = response.json();
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
    });
    for (const type of CANARY_CHECK_TYPES) {
      expect(schema.properties[type], type).toMatchObject({ type: 'array', items: { type: 'object' } });
      expect(schema.properties[type].items.required, type).toContain('name');
    }
    expect(schema.properties.interval).toMatchObject({ type: 'integer' });
    const unknown = await testApp.app.inject({ method: 'GET', url: '/api/schemas/nope.schema.json' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(
      "No schema 'nope.schema.json'; the schemas are canary.spec.schema.json, config_scraper.spec.schema.json, " +
        'notification.spec.schema.json, playbook-spec.schema.json, scrape_config.spec.schema.json, topology.spec.schema.json.',
    );
  });

  it('serves the schema of every document kind (ui-calls 3.10 and 3.16)', async () => {
    for (const file of [
      'canary.spec.schema.json',
      'topology.spec.schema.json',
      'scrape_config.spec.schema.json',
      'config_scraper.spec.schema.json',
      'playbook-spec.schema.json',
      'notification.spec.schema.json',
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/schemas/${file}` });
      expect(response.statusCode, file).toBe(200);
      expect(response.json(), file).toMatchObject({ $id: file, type: 'object' });
    }
  });

  it('answers an unknown /api path with a JSON 404 in the error envelope', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/does-not-exist?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'No API route matches GET /api/does-not-exist.' },
      message: 'No API route matches GET /api/does-not-exist.',
    });
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/about']));
    const about = document.paths['/api/about'].get.responses['200'].content['application/json'].schema;
    expect(about.properties).toHaveProperty('Version');
  });

  it('serves the interactive API docs at /api/docs', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});

describe('health with an unreachable database', () => {
  it('answers 503 and says the database is unavailable', async () => {
    const port = await findFreePort();
    const unreachable = createDatabase({
      url: `postgres://nobody:nothing@127.0.0.1:${port}/none`,
      logger: pino({ level: 'silent' }),
    });
    const testApp = await buildTestApp({ database: unreachable });
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'degraded', database: { status: 'unavailable' } });
      expect(response.json().database.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await testApp.close();
      await unreachable.close();
    }
  });
});
