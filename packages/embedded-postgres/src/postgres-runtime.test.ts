import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { reachableRuntime, type PostgresRuntime } from './postgres-runtime.js';
import { canReach, postgresRunAs } from './postgres-user.js';

const asRoot = process.getuid?.() === 0;

/** A PostgreSQL-shaped tree (bin/, lib/ with a static library) with harmless programs in it. */
async function fakeRuntime(root: string): Promise<PostgresRuntime> {
  await mkdir(path.join(root, 'bin'), { recursive: true });
  await mkdir(path.join(root, 'lib'), { recursive: true });
  await mkdir(path.join(root, 'share'), { recursive: true });
  for (const program of ['postgres', 'initdb']) await copyFile('/bin/true', path.join(root, 'bin', program));
  await writeFile(path.join(root, 'lib', 'libpq.so.5'), 'shared');
  await writeFile(path.join(root, 'lib', 'libpgport.a'), 'static');
  await writeFile(path.join(root, 'share', 'postgres.bki'), 'catalog');
  return {
    root,
    version: '17.0.0-test',
    postgres: path.join(root, 'bin', 'postgres'),
    initdb: path.join(root, 'bin', 'initdb'),
  };
}

describe('the PostgreSQL programs and the account that runs them', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('runs the installed programs where the account can reach them', async () => {
    const logger = pino({ level: 'silent' });
    const runAs = await postgresRunAs(logger);
    const open = await mkdtemp(path.join(os.tmpdir(), 'lookout-runtime-'));
    folders.push(open);
    await chmod(open, 0o755);
    const bundled = await fakeRuntime(path.join(open, 'native'));
    expect(await reachableRuntime({ bundled, runAs, logger, sharedRoot: path.join(open, 'shared') })).toBe(bundled);
  });

  // In root's private home the postgres account (which runs PostgreSQL for a root Lookout)
  // cannot run the installed programs, so they are copied once; any other user runs them in place.
  it('copies the programs once where the account can run them only when it cannot reach them', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const runAs = await postgresRunAs(logger);
    const home = await mkdtemp(path.join(os.tmpdir(), 'lookout-runtime-home-')); // 0700
    const open = await mkdtemp(path.join(os.tmpdir(), 'lookout-runtime-shared-'));
    folders.push(home, open);
    await chmod(open, 0o755);
    const bundled = await fakeRuntime(path.join(home, 'lookout', 'node_modules', 'native'));
    expect(canReach(runAs, bundled.postgres)).toBe(!asRoot);
    const sharedRoot = path.join(open, 'lookout-postgres');
    const copies = () => lines.filter((line) => line.includes('copying them once')).length;

    const runtime = await reachableRuntime({ bundled, runAs, logger, sharedRoot });
    expect(canReach(runAs, runtime.postgres)).toBe(true);
    expect(canReach(runAs, runtime.initdb)).toBe(true);
    if (asRoot) {
      expect(runtime.root).toBe(path.join(sharedRoot, 'runtime-17.0.0-test'));
      expect((await readdir(path.join(runtime.root, 'lib'))).sort()).toEqual(['libpq.so.5']);
      expect(await readdir(path.join(runtime.root, 'share'))).toEqual(['postgres.bki']);
    } else {
      expect(runtime).toBe(bundled);
    }
    expect(copies()).toBe(asRoot ? 1 : 0);
    expect(await reachableRuntime({ bundled, runAs, logger, sharedRoot })).toEqual(runtime);
    expect(copies()).toBe(asRoot ? 1 : 0);
  });
});
