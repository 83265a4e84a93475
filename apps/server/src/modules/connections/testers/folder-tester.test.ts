import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { testFolderConnection } from './folder-tester.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-folder-test-'));
  await writeFile(path.join(dir, 'file.txt'), 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folder = (value: string) => connectionUnderTest('folder', { properties: { path: value } });

describe('the folder tester', () => {
  it('accepts a folder Lookout can write into, and writes nothing', async () => {
    await testFolderConnection(folder(dir), testerContext());
  });

  it('says when the folder is missing, a file, or relative', async () => {
    await expect(testFolderConnection(folder(path.join(dir, 'missing')), testerContext())).rejects.toThrow(
      `The folder '${path.join(dir, 'missing')}' does not exist on the Lookout server`,
    );
    await expect(testFolderConnection(folder(path.join(dir, 'file.txt')), testerContext())).rejects.toThrow(
      `'${path.join(dir, 'file.txt')}' is not a folder`,
    );
    await expect(testFolderConnection(folder('reports'), testerContext())).rejects.toThrow(
      "The folder 'reports' is not an absolute path",
    );
  });

  it('says when Lookout may not write into the folder', async () => {
    if (process.getuid?.() === 0) {
      // root writes everywhere; a read-only mount is what stops it.
      await expect(testFolderConnection(folder('/proc/1'), testerContext())).rejects.toThrow(
        "The folder '/proc/1' is not writable by the Lookout server",
      );
      return;
    }
    const locked = path.join(dir, 'locked');
    await import('node:fs/promises').then((fs) => fs.mkdir(locked));
    await chmod(locked, 0o500);
    await expect(testFolderConnection(folder(locked), testerContext())).rejects.toThrow(
      `The folder '${locked}' is not writable by the Lookout server`,
    );
  });
});
