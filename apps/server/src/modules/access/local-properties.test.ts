import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalProperties } from './local-properties.js';

describe('loading local properties at start-up', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-properties-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('has none without a file or a setting', async () => {
    expect(await loadLocalProperties({ dataDir: dir })).toEqual([]);
  });

  it('reads <data dir>/properties.yaml, then LOOKOUT_PROPERTIES over it', async () => {
    await writeFile(path.join(dir, 'properties.yaml'), 'incidents.disable: true\nlogs.disable: true\n');
    expect(await loadLocalProperties({ dataDir: dir, inline: 'logs.disable=false' })).toEqual([
      { name: 'incidents.disable', value: 'true' },
      { name: 'logs.disable', value: 'false' },
    ]);
  });

  it('needs a configured file to exist, and names the setting when something is wrong', async () => {
    await expect(loadLocalProperties({ dataDir: dir, file: path.join(dir, 'missing.yaml') })).rejects.toThrow(
      /LOOKOUT_PROPERTIES_FILE \(--properties-file\) cannot be read: .*missing\.yaml \(ENOENT\)/,
    );
    await expect(loadLocalProperties({ dataDir: os.tmpdir(), inline: 'oops' })).rejects.toThrow(
      "LOOKOUT_PROPERTIES (--properties) 'oops' is not name=value",
    );
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, '- just\n- a list\n');
    await expect(loadLocalProperties({ dataDir: dir, file: bad })).rejects.toThrow(/must be a mapping/);
  });
});
