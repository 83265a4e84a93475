import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FolderCheck } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWithPlan } from '../../../sandbox/sandbox.js';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
const HOUR = 3_600_000;
let root = '';

async function file(relative: string, size: number, ageMs: number) {
  const full = path.join(root, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, Buffer.alloc(size, 'x'));
  const when = new Date(Date.now() - ageMs);
  await utimes(full, when, when);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'lookout-folder-check-'));
  await file('backup-1.tar.gz', 4096, 50 * HOUR);
  await file('backup-2.tar.gz', 8192, 2 * HOUR);
  await file('notes.txt', 12, 10 * 60_000);
  await file('archive/backup-0.tar.gz', 2048, 100 * HOUR);
  await mkdir(path.join(root, 'empty'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const run = (check: Omit<FolderCheck, 'name'>) =>
  runCheck({ type: 'folder', check: { name: 'backups', ...check } }, { resolveSecret, timeoutMs: 5000 });

describe('folder runner against a temporary folder', () => {
  it('passes when the filtered files are fresh, numerous and large enough', async () => {
    const result = await run({
      path: root,
      filter: { regex: '\\.tar\\.gz$' },
      maxAge: '3h',
      minCount: 2,
      maxCount: 2,
      minSize: '4KB',
      maxSize: '1MB',
      availableSize: '1KB',
      test: { expr: 'results.count == 2 && results.newest.name == "backup-2.tar.gz"' },
    });
    expect(result).toMatchObject({
      pass: true,
      message: `${root}: 2 files, newest backup-2.tar.gz (2 hours old), 12 KB in total`,
    });
  });

  it('descends into subfolders when recursive', async () => {
    const result = await run({ path: root, recursive: true, filter: { regex: 'backup' }, minCount: 3 });
    expect(result).toMatchObject({ pass: true });
    expect(result.detail).toMatchObject({ count: 3, oldest: { name: path.join('archive', 'backup-0.tar.gz') } });
  });

  it('fails with each broken expectation in words', async () => {
    const result = await run({
      path: root,
      filter: { regex: '\\.tar\\.gz$' },
      maxAge: '1h',
      minCount: 3,
      maxSize: '6KB',
    });
    expect(result).toMatchObject({
      pass: false,
      message:
        `${root}: found 2 files, expected at least 3; ` +
        'newest file backup-2.tar.gz is 2 hours old, expected at most 1h; ' +
        'file backup-2.tar.gz is 8.0 KB, expected at most 6.0 KB',
    });
  });

  it('fails on an empty folder that should have files, and on a missing one', async () => {
    expect(await run({ path: path.join(root, 'empty'), minCount: 1 })).toMatchObject({
      pass: false,
      message: `${path.join(root, 'empty')}: found 0 files, expected at least 1`,
    });
    expect(await run({ path: path.join(root, 'missing') })).toMatchObject({
      pass: false,
      message: `${path.join(root, 'missing')} does not exist`,
    });
  });
});

describe("folder runner and Lookout's data directory", () => {
  let parent = '';
  let dataDir = '';
  const runWithDataDir = async (check: Omit<FolderCheck, 'name'>) => {
    // Folder checks run no script; the sandbox only tells them which paths are Lookout's.
    const sandbox = await sandboxWithPlan({ mode: 'refused', reason: 'no scripts here' }, { privatePaths: [dataDir] });
    return runCheck(
      { type: 'folder', check: { name: 'snoop', ...check } },
      { resolveSecret, timeoutMs: 5000, sandbox },
    );
  };

  beforeAll(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'lookout-folder-private-'));
    dataDir = path.join(parent, 'lookout-data');
    await mkdir(path.join(dataDir, 'postgres'), { recursive: true });
    await writeFile(path.join(dataDir, 'postgres-credentials.json'), '{"user":"lookout","password":"x"}');
    await writeFile(path.join(dataDir, 'secret-key'), 'k');
    await writeFile(path.join(dataDir, 'postgres', 'PG_VERSION'), '17');
    await writeFile(path.join(parent, 'backup.tar.gz'), 'b');
    await mkdir(path.join(parent, 'links'));
    await symlink(dataDir, path.join(parent, 'links', 'to-data'));
    await symlink(path.join(dataDir, 'secret-key'), path.join(parent, 'links', 'key'));
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('refuses to list the data directory and anything inside it', async () => {
    for (const target of [dataDir, path.join(dataDir, 'postgres'), `${dataDir}/../lookout-data/`]) {
      const result = await runWithDataDir({ path: target });
      expect(result, target).toMatchObject({
        pass: false,
        message: `${target} is in Lookout's data directory, which checks may not list`,
      });
      expect(JSON.stringify(result.detail ?? null), target).not.toContain('secret-key');
    }
  });

  it('refuses a symlink that leads into it', async () => {
    const link = path.join(parent, 'links', 'to-data');
    expect(await runWithDataDir({ path: link })).toMatchObject({
      pass: false,
      message: `${link} is in Lookout's data directory, which checks may not list`,
    });
  });

  it('lists a folder above it without the data directory or links into it', async () => {
    const result = await runWithDataDir({ path: parent, recursive: true });
    expect(result.pass).toBe(true);
    const names = (result.detail as { files: { name: string }[] }).files.map((file) => file.name);
    expect(names).toEqual(['backup.tar.gz']);
    expect(result.detail).toMatchObject({ count: 1 });
  });
});
