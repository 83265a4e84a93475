import { CANARY_API_VERSION, CANARY_KIND } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { validateCanaryDocument } from './health-canary-rules-fns.js';

const document = (spec: object) => ({
  apiVersion: CANARY_API_VERSION,
  kind: CANARY_KIND,
  metadata: { name: 'web' },
  spec,
});
const home = { name: 'home', url: 'https://example.com' };
const messages = (input: unknown) => {
  const result = validateCanaryDocument(input);
  return result.ok ? [] : result.errors.map((error) => error.message);
};

describe('validateCanaryDocument', () => {
  it('accepts schedules the scheduler honours and expressions that compile', () => {
    for (const schedule of ['@every 1s', '@every 1m30s', '*/5 * * * *', '*/10 * * * * *', '@hourly', '@midnight']) {
      expect(messages(document({ schedule, http: [home] })), schedule).toEqual([]);
    }
    const expressions = {
      test: { expr: "code in [200, 201] && json.status == 'ok'" },
      display: { expr: "code == 200 ? 'up' : 'down: ' + string(code)" },
      transform: { expr: "[{'name': 'a', 'pass': code == 200}, {'name': 'b', 'pass': false}]" },
    };
    expect(messages(document({ interval: 30, http: [{ ...home, ...expressions }] }))).toEqual([]);
    expect(
      messages(document({ exec: [{ name: 'e', script: 'true', test: { expr: 'stdout.contains("ok")' } }] })),
    ).toEqual([]);
  });

  it('refuses a schedule below the scheduler minimum, or one it cannot read, naming spec.schedule', () => {
    expect(messages(document({ schedule: '@every 1ms', http: [home] }))).toEqual([
      "spec.schedule: '@every 1ms' is more often than checks can run; the shortest interval is @every 1s",
    ]);
    expect(messages(document({ schedule: '@every 999ms', http: [home] }))).toHaveLength(1);
    const [cron] = messages(document({ schedule: '61 * * * *', http: [home] }));
    expect(cron).toMatch(/^spec\.schedule: '61 \* \* \* \*' is not a cron expression: /);
  });

  it('refuses test, display and transform expressions that do not compile, naming each', () => {
    const check = {
      ...home,
      name: 'api',
      test: { expr: 'code ==' },
      display: { expr: "'up ' + 1" },
      transform: { expr: 'lookup(json)' },
    };
    expect(
      messages(
        document({
          http: [home, check],
          prometheus: [{ name: 'p', url: 'http://p:9090', query: 'up', test: { expr: ')' } }],
        }),
      ),
    ).toEqual([
      'spec.http[1].test.expr: does not compile: Unexpected token: EOF',
      'spec.http[1].display.expr: does not compile: no such overload: string + int',
      "spec.http[1].transform.expr: does not compile: found no matching overload for 'lookup(dyn)'",
      'spec.prometheus[0].test.expr: does not compile: Unexpected token: RPAREN',
    ]);
  });

  it('reports schema problems first, as the schema words them', () => {
    expect(messages(document({ schedule: '@every 1ms', http: [{ name: 'home', url: 'nope' }] }))).toEqual([
      'spec.http[0].url: must be a URL',
    ]);
  });
});
