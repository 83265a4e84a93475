import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterNameFor, ensureDataDir, locateCluster } from './cluster-location.js';
import { postgresRunAs } from './postgres-user.js';

const logger = pino({ level: 'silent' });
const asRoot = process.getuid?.() === 0;

describe('the data directory and where its cluster lives', () => {
  const folders: string[] = [];
  const scratch = async (mode = 0o711) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'lookout-location-'));
    await chmod(folder, mode);
    folders.push(folder);
    return folder;
  };
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('creates a missing data directory private to Lookout, passable (not listable) for the postgres account', async () => {
    const runAs = await postgresRunAs(logger);
    const dataDir = path.join(await scratch(), 'new', '.lookout');
    await ensureDataDir(dataDir, runAs);
    expect((await stat(dataDir)).mode & 0o777).toBe(runAs ? 0o711 : 0o700);
  });

  it('never changes the mode of a data directory it did not create (a shared 1777 folder keeps its sticky bit)', async () => {
    const runAs = await postgresRunAs(logger);
    const shared = await scratch(0o1777);
    await ensureDataDir(shared, runAs);
    await locateCluster({ dataDir: shared, runAs, logger });
    expect((await stat(shared)).mode & 0o7777).toBe(0o1777);
    expect((await stat(path.join(shared, 'postgres'))).isDirectory()).toBe(true);
  });

  it('keeps the cluster in <data dir>/postgres, owned by the account that runs PostgreSQL, 0700', async () => {
    const runAs = await postgresRunAs(logger);
    const dataDir = await scratch();
    const clusterDir = await locateCluster({ dataDir, runAs, logger });
    expect(clusterDir).toBe(path.join(dataDir, 'postgres'));
    const info = await stat(clusterDir);
    expect(info.mode & 0o777).toBe(0o700);
    expect(info.uid).toBe(runAs?.uid ?? process.getuid?.());
  });

  // Under a private parent (root's home) the answer depends on who runs Lookout: as root,
  // PostgreSQL runs as the postgres account, which cannot pass, so the cluster moves to the
  // shared root behind a link; as any other user PostgreSQL runs as that user, who can.
  it('keeps the cluster of a data directory under a private parent where PostgreSQL can reach it', async () => {
    const runAs = await postgresRunAs(logger);
    const home = await scratch(0o700); // like root's home
    const sharedRoot = path.join(await scratch(), 'shared');
    const dataDir = path.join(home, '.lookout');
    await ensureDataDir(dataDir, runAs);

    const clusterDir = await locateCluster({ dataDir, runAs, logger, sharedRoot });
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    if (asRoot) {
      expect(clusterDir).toBe(path.join(sharedRoot, clusterNameFor(dataDir)));
      expect((await lstat(path.join(dataDir, 'postgres'))).isSymbolicLink()).toBe(true);
      expect(await readlink(path.join(dataDir, 'postgres'))).toBe(clusterDir);
      expect((await stat(clusterDir)).uid).toBe(runAs!.uid);
      expect((await stat(sharedRoot)).mode & 0o777).toBe(0o755);
    } else {
      expect(clusterDir).toBe(path.join(dataDir, 'postgres'));
      expect((await lstat(clusterDir)).isDirectory()).toBe(true);
      expect(existsSync(sharedRoot)).toBe(false);
    }
    // The next start finds the same place.
    expect(await locateCluster({ dataDir, runAs, logger, sharedRoot })).toBe(clusterDir);
  });

  it('as root moves aside what a removed data directory of the same path left in the shared root; otherwise never looks there', async () => {
    const runAs = await postgresRunAs(logger);
    const home = await scratch(0o700);
    const sharedRoot = path.join(await scratch(), 'shared');
    const dataDir = path.join(home, '.lookout');
    await ensureDataDir(dataDir, runAs);
    const leftover = path.join(sharedRoot, clusterNameFor(dataDir));
    await mkdir(leftover, { recursive: true });
    await writeFile(path.join(leftover, 'PG_VERSION'), '17\n');
    const lines: string[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });

    const clusterDir = await locateCluster({ dataDir, runAs, logger: recording, sharedRoot });
    if (asRoot) {
      expect(clusterDir).toBe(leftover);
      expect(existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(false);
      expect(lines.join('')).toContain(`${leftover}-removed-`);
    } else {
      expect(clusterDir).toBe(path.join(dataDir, 'postgres'));
      expect(existsSync(path.join(leftover, 'PG_VERSION'))).toBe(true);
      expect(lines).toEqual([]);
    }
  });

  it('as root stops with one line naming LOOKOUT_DATA_DIR when the shared root is out of reach too; otherwise does not need it', async () => {
    const runAs = await postgresRunAs(logger);
    const home = await scratch(0o700);
    const sharedRoot = await scratch(0o700); // exists, private: Lookout does not re-mode it
    const dataDir = path.join(home, '.lookout');
    await ensureDataDir(dataDir, runAs);

    const located = locateCluster({ dataDir, runAs, logger, sharedRoot });
    if (asRoot) {
      await expect(located).rejects.toThrow(
        /cannot enter LOOKOUT_DATA_DIR .*Set LOOKOUT_DATA_DIR to a folder that account can enter/,
      );
      await expect(located).rejects.not.toThrow(/\n/);
    } else {
      await expect(located).resolves.toBe(path.join(dataDir, 'postgres'));
    }
    expect((await stat(sharedRoot)).mode & 0o777).toBe(0o700);
  });

  it('refuses to start over when the link names a cluster that is gone, and says how', async () => {
    const runAs = await postgresRunAs(logger);
    const dataDir = await scratch();
    await symlink(path.join(dataDir, 'gone'), path.join(dataDir, 'postgres'));
    await expect(locateCluster({ dataDir, runAs, logger })).rejects.toThrow(
      /links to .*gone, which holds the PostgreSQL data of LOOKOUT_DATA_DIR .* is missing; restore it, or remove the link/,
    );
  });
});
