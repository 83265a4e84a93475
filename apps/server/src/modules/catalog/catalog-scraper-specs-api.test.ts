import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Scraper specs with the kubernetes, kubernetesFile and exec types, insight and relationship
 * rules through /api/db/config_scrapers as the console writes them: accepted when valid, a 400
 * naming every wrong field otherwise (a javascript expression is checked like an expr one).
 */

let testApp: TestApp;
let editor: TestUser;

beforeAll(async () => {
  // The kubernetesFile entry below reads /srv/manifests (LOOKOUT_SCRAPE_FILE_ROOTS).
  testApp = await buildTestApp({ catalog: { fileRoots: ['/srv'] } });
  editor = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'editor@example.com',
    roles: ['editor'],
  });
});
afterAll(() => testApp.close());

const post = (body: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/db/config_scrapers',
    headers: { ...bearer(editor), 'content-type': 'application/json', prefer: 'return=representation' },
    payload: JSON.stringify(body),
  });

describe('scraper specs through the data API', () => {
  it('accepts kubernetes, kubernetesFile and exec entries with rules', async () => {
    const response = await post({
      name: 'cluster',
      spec: {
        kubernetes: [
          {
            clusterName: 'prod',
            connection: 'connection://default/prod',
            exclusions: { namespace: ['kube-*'] },
            analysis: [{ name: 'no-limits', filter: "config.kind == 'Pod'", type: 'performance', severity: 'low' }],
            transform: {
              relationship: [
                { filter: 'true', type: { value: 'App::Database' }, name: { expr: 'config.metadata.name' } },
              ],
            },
          },
        ],
        kubernetesFile: [{ selector: { kind: 'Deployment' }, files: [{ path: ['/srv/manifests/*.yaml'] }] }],
        exec: [{ type: 'Script::Host', id: '$.name', script: 'echo []' }],
      },
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses malformed javascript expressions, bad insight and relationship rules, and a kubernetes entry without its cluster', async () => {
    const response = await post({
      name: 'bad-rules',
      spec: {
        file: [
          {
            type: 'F',
            name: 'javascript: config.name(',
            paths: ['/srv/*.yaml'],
            analysis: [{ name: 'x', filter: 'config.a >', type: 'uptime' }],
            transform: { relationship: [{ parent: true }] },
          },
        ],
        kubernetes: [{ namespace: 'shop' }],
      },
    });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { details: string }).details.split('\n')).toEqual([
      "spec.file[0].name: javascript expression has an unclosed '('",
      expect.stringMatching(/^spec\.file\[0\]\.transform\.relationship\[0\]\.expr: needs expr or a selector field/),
      expect.stringMatching(/^spec\.file\[0\]\.analysis\[0\]\.type: must be one of cost, availability/),
      'spec.kubernetes[0].clusterName: is required',
    ]);
  });
});
