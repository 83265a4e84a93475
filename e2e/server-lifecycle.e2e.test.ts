import { existsSync, readFileSync } from 'node:fs';
import { chmod, lstat, mkdtemp, readFile, readlink, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, makeDataDir, runCli, startLookout } from './support/lookout-server.js';

function installationId(output: string): string | undefined {
  return /"installationId":"([0-9a-f-]+)"/.exec(output)?.[1];
}

/** The embedded PostgreSQL's postmaster pid and port, from its lock file in the cluster. */
async function postmasterOf(dataDir: string): Promise<{ pid: number; port: number }> {
  const lines = (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/** A live process, not a zombie waiting for its parent. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** A client of the `lookout` database of a data directory's running embedded PostgreSQL. */
async function embeddedClient(dataDir: string): Promise<pg.Client> {
  const { port } = await postmasterOf(dataDir);
  const credentials = JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  const client = new pg.Client({ host: '127.0.0.1', port, database: 'lookout', ...credentials });
  await client.connect();
  return client;
}

/** Log lines at warn level or above (pino levels 40+) written after `from`. */
function warningsAfter(output: string, from: string): string[] {
  const start = output.indexOf(from);
  return output
    .slice(start === -1 ? 0 : start)
    .split('\n')
    .filter((line) => /"level":(4|5|6)\d/.test(line));
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

describe('stopping lookout serve', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  // A terminal's Ctrl-C sends SIGINT to the whole foreground process group; service managers
  // send SIGTERM. Either way Lookout finishes its work, closes its connections, and stops its
  // PostgreSQL last, which a group signal must not reach first.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops cleanly on ${signal} sent to its process group: PostgreSQL last, exit 0, no warning`, async () => {
      const data = await makeDataDir();
      cleanups.push(data.remove);
      const server = await startLookout({ dataDir: data.dir, groupLeader: true });
      const postmaster = await postmasterOf(data.dir);
      expect(isAlive(postmaster.pid)).toBe(true);
      // Connections in use and idle, as a console in use leaves them.
      await Promise.all([1, 2, 3, 4].map(() => fetch(`${server.url}/api/health`)));

      process.kill(-server.process.pid!, signal);
      expect(await server.exited).toBe(0);

      const output = server.output();
      expect(warningsAfter(output, '"msg":"Shutting down"')).toEqual([]);
      const lifecycle = output
        .split('\n')
        .filter((line) => /"msg":"(Shutting down|Embedded PostgreSQL stopped)"/.test(line));
      expect(lifecycle.map((line) => /"msg":"([^"]+)"/.exec(line)?.[1])).toEqual([
        'Shutting down',
        'Embedded PostgreSQL stopped',
      ]);
      expect(isAlive(postmaster.pid)).toBe(false);
      expect(existsSync(path.join(data.dir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(existsSync(path.join(data.dir, 'lookout.lock'))).toBe(false);
    });
  }
});

describe('lookout serve after the Lookout process was killed', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('stops the PostgreSQL a SIGKILL left running and starts with the data committed before it', async () => {
    const data = await makeDataDir();
    cleanups.push(data.remove);
    const first = await startLookout({ dataDir: data.dir });
    const firstId = installationId(first.output());
    const client = await embeddedClient(data.dir);
    await client.query('CREATE TABLE before_the_kill (note text); INSERT INTO before_the_kill VALUES ($$committed$$)');
    await client.end();
    const orphan = await postmasterOf(data.dir);

    // As the OOM killer does: the Lookout process alone, nothing else.
    first.process.kill('SIGKILL');
    await first.exited;
    expect(isAlive(orphan.pid)).toBe(true); // left running without its parent, holding postmaster.pid

    const second = await startLookout({ dataDir: data.dir });
    cleanups.push(async () => void (await second.stop()));
    expect(second.output()).toContain('Stopping the embedded PostgreSQL a Lookout that ended left running');
    expect(isAlive(orphan.pid)).toBe(false);
    expect(installationId(second.output())).toBe(firstId);
    const after = await embeddedClient(data.dir);
    try {
      expect((await after.query('SELECT note FROM before_the_kill')).rows).toEqual([{ note: 'committed' }]);
    } finally {
      await after.end();
    }

    // A second Lookout on a data directory a live one runs still stops, and says why.
    const intruder = await runCli(['serve'], {
      LOOKOUT_DATA_DIR: data.dir,
      DATABASE_URL: '',
      PORT: String(await freePort()),
    });
    expect(intruder.code).toBe(1);
    expect(intruder.output).toContain(
      `Another Lookout (pid ${second.process.pid}) is running on the data directory ${data.dir}`,
    );
    const health = await fetch(`${second.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await second.stop()).toBe(0);
  });
});

describe('lookout serve and the folders it is given', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('leaves the mode of an existing data directory alone (a shared 1777 folder keeps its sticky bit)', async () => {
    const data = await makeDataDir();
    cleanups.push(data.remove);
    await chmod(data.dir, 0o1777);
    const server = await startLookout({ dataDir: data.dir });
    expect((await stat(data.dir)).mode & 0o7777).toBe(0o1777);
    expect(await server.stop()).toBe(0);
    expect((await stat(data.dir)).mode & 0o7777).toBe(0o1777);
  });

  // As root PostgreSQL runs as the postgres account, which cannot pass a private parent, so the
  // cluster is kept where it can reach it, linked from the data directory; as any other user
  // PostgreSQL runs as that user and the cluster stays inside. Either way no folder changes mode.
  it("starts with its data directory under a mode-700 parent (a clone in root's home) and finds its data again", async () => {
    const asRoot = process.getuid?.() === 0;
    const home = await mkdtemp(path.join(os.tmpdir(), 'lookout-root-home-')); // 0700, like /root
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const dataDir = path.join(home, '.lookout');

    const first = await startLookout({ dataDir });
    const health = (await fetch(`${first.url}/api/health`).then((r) => r.json())) as { status: string };
    expect(health.status).toBe('ok');
    const cluster = await lstat(path.join(dataDir, 'postgres'));
    expect(cluster.isSymbolicLink()).toBe(asRoot);
    const relocated = asRoot ? await readlink(path.join(dataDir, 'postgres')) : undefined;
    if (relocated) {
      cleanups.push(() => rm(relocated, { recursive: true, force: true }));
      expect(relocated).toMatch(/^\/var\/lib\/lookout-postgres\/cluster-[0-9a-f]{16}$/);
    }
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    const firstId = installationId(first.output());
    expect(await first.stop()).toBe(0);

    const second = await startLookout({ dataDir });
    try {
      expect(installationId(second.output())).toBe(firstId);
      if (relocated) expect(await readlink(path.join(dataDir, 'postgres'))).toBe(relocated);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
