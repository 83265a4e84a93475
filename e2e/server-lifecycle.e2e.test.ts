import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, makeDataDir, runCli, startLookout } from './support/lookout-server.js';

function installationId(output: string): string | undefined {
  return /"installationId":"([0-9a-f-]+)"/.exec(output)?.[1];
}

describe('lookout serve with the embedded PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('serves on the given PORT from the given data directory and keeps its data across a restart', async () => {
    const data = await makeDataDir();
    cleanups.push(data.remove);
    const port = await freePort();

    // Without LOOKOUT_PUBLIC_URL (an empty variable is unset) it says where emailed links go.
    const first = await startLookout({ dataDir: data.dir, port, env: { LOOKOUT_PUBLIC_URL: '' } });
    const health = await fetch(`${first.url}/api/health`).then((r) => r.json());
    expect(health).toMatchObject({ status: 'ok', database: { status: 'ok' } });
    const about = (await fetch(`${first.url}/api/about`).then((r) => r.json())) as { Version: string };
    expect(about.Version).toMatch(/^\d+\.\d+\.\d+/);
    const docs = (await fetch(`${first.url}/api/docs/json`).then((r) => r.json())) as { paths: object };
    expect(docs.paths).toHaveProperty('/api/about');
    const firstId = installationId(first.output());
    expect(firstId).toBeDefined();
    expect(first.output()).toContain('Applied database migrations');
    expect(first.output()).toContain(
      `LOOKOUT_PUBLIC_URL (--public-url) is not set, so links in recovery, verification and invitation emails point at http://localhost:${port}`,
    );
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('Embedded PostgreSQL stopped');

    const second = await startLookout({ dataDir: data.dir, port });
    try {
      expect(installationId(second.output())).toBe(firstId);
      expect(second.output()).not.toContain('Applied database migrations');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('stops at start-up with a message naming a wrong setting', async () => {
    const result = await runCli(['serve'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.output).toContain("PORT (--port) must be a number; got 'eighty'");
  });

  it('applies migrations alone with `lookout migrate` and prints its version', async () => {
    const data = await makeDataDir();
    cleanups.push(data.remove);
    const migrated = await runCli(['migrate'], { LOOKOUT_DATA_DIR: data.dir, DATABASE_URL: '' });
    expect(migrated.code).toBe(0);
    expect(migrated.output).toContain('Applied database migrations');
    const again = await runCli(['migrate'], { LOOKOUT_DATA_DIR: data.dir, DATABASE_URL: '' });
    expect(again.output).toContain('The database schema is up to date');
    const version = await runCli(['version']);
    expect(version.output).toMatch(/^lookout \d+\.\d+\.\d+/);
  });

  it('uses the PostgreSQL at DATABASE_URL when it is set', async () => {
    // The machine's own PostgreSQL (or LOOKOUT_E2E_DATABASE_URL); a throwaway database on it.
    const adminUrl = process.env.LOOKOUT_E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = new pg.Client({ connectionString: adminUrl });
    try {
      await admin.connect();
    } catch (error) {
      console.warn(`SKIPPED the DATABASE_URL check: no PostgreSQL reachable at ${adminUrl} (${String(error)})`);
      return;
    }
    const name = `lookout_e2e_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const result = await runCli(['migrate'], { DATABASE_URL: url.toString(), LOG_LEVEL: 'info' });
      expect(result.code).toBe(0);
      expect(result.output).toContain('Using the PostgreSQL at DATABASE_URL');
      expect(result.output).toContain('Applied database migrations');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
