import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

/**
 * The built `lookout serve` with LOOKOUT_METRICS_PORT and LOOKOUT_METRICS_TOKEN, as an operator
 * runs it: /metrics answers on its own port (with the token) and not on the console's, and the
 * background workers of the same process feed it: the lookout-self canary's scheduled runs and
 * the health jobs show up without anyone calling the API.
 */

const TOKEN = 'e2e-metrics-token-0123456789abcdef';
let server: LookoutServer;
let removeDataDir: () => Promise<void>;
let metricsUrl = '';

beforeAll(async () => {
  const dataDir = await makeDataDir();
  removeDataDir = dataDir.remove;
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await startLookout({
    dataDir: dataDir.dir,
    env: {
      LOOKOUT_METRICS_PORT: String(metricsPort),
      LOOKOUT_METRICS_HOST: '127.0.0.1',
      LOOKOUT_METRICS_TOKEN: TOKEN,
    },
  });
}, 120_000);

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  await removeDataDir?.();
});

const scrape = async () => {
  const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
};

/** Scrapes until `pattern` shows, for work the background workers do on their own timers. */
async function eventually(pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 60_000;
  let text = '';
  while (Date.now() < deadline) {
    text = await scrape();
    if (pattern.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${pattern} never showed in /metrics; last scrape:\n${text}`);
}

describe('lookout serve with LOOKOUT_METRICS_PORT', () => {
  it('serves /metrics on its own port with the token, and the console keeps /metrics as an unknown page', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    const text = await scrape();
    expect(text).toMatch(/^lookout_build_info\{version="[^"]+"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);

    const onConsole = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(onConsole.headers.get('content-type')).toContain('text/html');
    expect(await onConsole.text()).not.toContain('# TYPE');
    expect(server.output()).toContain('GET /metrics is served on LOOKOUT_METRICS_PORT');
    expect(server.output()).not.toContain(TOKEN);
  });

  it("counts the scheduler's runs of the lookout-self canary and the health jobs' runs", async () => {
    const text = await eventually(/^canary_check_count\{[^}]*canary_name="lookout-self"[^}]*\} [1-9]/m);
    // The run is counted as it ends; the gauge reads checks.status, which the result writer
    // stores a moment later, so it is awaited on its own.
    await eventually(/^canary_check\{[^}]*canary_name="lookout-self"[^}]*\} [01]$/m);
    expect(text).toMatch(/^lookout_scheduler_start_delay_seconds_count [1-9]/m);
    await eventually(/^lookout_job_duration_seconds_count\{name="RefreshCheckStatusSummary",status="SUCCESS"\} [1-9]/m);
  });
});
