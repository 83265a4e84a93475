import { chmod, mkdtemp, mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeDataDir } from '../../test/sandbox-helpers.js';
import { protectDataDir } from './protect-data-dir.js';

const silent = pino({ level: 'silent' });
const modeOf = async (target: string) => (await stat(target)).mode & 0o7777;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('protecting the data directory', () => {
  it("makes Lookout's credential files private and leaves the directory and other files as they were", async () => {
    const data = await createFakeDataDir();
    cleanups.push(data.remove);
    await chmod(data.dir, 0o755);
    await writeFile(path.join(data.dir, 'notes.txt'), 'copied in by an operator');
    await chmod(path.join(data.dir, 'notes.txt'), 0o664);
    await mkdir(path.join(data.dir, 'postgres'), { mode: 0o750 });
    const lines: string[] = [];
    await protectDataDir(data.dir, pino({ level: 'info' }, { write: (line: string) => lines.push(line) }));
    // Issue 20 item 9: a directory's mode is its owner's to choose.
    expect(await modeOf(data.dir)).toBe(0o755);
    for (const file of ['postgres-credentials.json', 'secret-key', 'admin-credentials']) {
      expect(await modeOf(path.join(data.dir, file)), file).toBe(0o600);
    }
    expect(await modeOf(path.join(data.dir, 'notes.txt'))).toBe(0o664);
    expect(await modeOf(path.join(data.dir, 'postgres'))).toBe(0o750);
    expect(lines.join('')).toContain('Other users can list the data directory');
  });

  it('leaves a private data directory as private as it was', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-data-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, 'secret-key'), 'k', { mode: 0o400 });
    await protectDataDir(dir, silent);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, 'secret-key'))).toBe(0o400);
  });

  it("keeps a shared folder's mode and changes only Lookout's files in it", async () => {
    const shared = await mkdtemp(path.join(os.tmpdir(), 'lookout-shared-'));
    cleanups.push(() => rm(shared, { recursive: true, force: true }));
    await chmod(shared, 0o1777);
    await writeFile(path.join(shared, 'secret-key'), 'k', { mode: 0o644 });
    await writeFile(path.join(shared, 'someone-elses.txt'), 'x', { mode: 0o644 });
    const target = path.join(shared, 'elsewhere.txt');
    await writeFile(target, 'x', { mode: 0o644 });
    await symlink(target, path.join(shared, 'admin-credentials'));
    const lines: string[] = [];
    await protectDataDir(shared, pino({ level: 'info' }, { write: (line: string) => lines.push(line) }));
    expect(await modeOf(shared)).toBe(0o1777);
    expect(await modeOf(path.join(shared, 'secret-key'))).toBe(0o600);
    expect(await modeOf(path.join(shared, 'someone-elses.txt'))).toBe(0o644);
    // A link is not followed: what it points at is not Lookout's to change.
    expect(await modeOf(target)).toBe(0o644);
    expect(lines.join('')).toContain('give LOOKOUT_DATA_DIR a folder of its own');
  });

  it('does nothing when there is no data directory', async () => {
    await expect(protectDataDir(path.join(os.tmpdir(), 'lookout-no-such-dir'), silent)).resolves.toBeUndefined();
  });
});
