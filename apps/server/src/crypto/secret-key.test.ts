import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readConfigInput } from '../config/config.js';
import { resolveSecretKey, resolveSecretKeys, SECRET_KEY_FILE } from './secret-key.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('the secret key', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-secret-key-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('is generated once into <data dir>/secret-key (0600) when LOOKOUT_SECRET_KEY is unset', async () => {
    const generated = await resolveSecretKey({ dataDir });
    expect((await stat(path.join(dataDir, SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
    const keys = await resolveSecretKeys({ dataDir });
    expect(keys).toEqual({ current: generated, previous: [], keyFile: path.join(dataDir, SECRET_KEY_FILE) });
  });

  it('comes from LOOKOUT_SECRET_KEY with the previous keys, the current one left out of them', async () => {
    const config = parseConfig(
      readConfigInput(
        { LOOKOUT_DATA_DIR: dataDir, LOOKOUT_SECRET_KEY: B, LOOKOUT_PREVIOUS_SECRET_KEYS: ` ${A} , ${B},${A}` },
        {},
      ),
    );
    expect(config.previousSecretKeys).toEqual([A, B, A]);
    expect(await resolveSecretKeys(config)).toEqual({ current: B, previous: [A] });
  });

  it('takes --previous-secret-keys over the environment, and an empty setting as none', () => {
    const flags = { previousSecretKeys: A };
    expect(parseConfig(readConfigInput({ LOOKOUT_PREVIOUS_SECRET_KEYS: B }, flags)).previousSecretKeys).toEqual([A]);
    expect(parseConfig(readConfigInput({ LOOKOUT_PREVIOUS_SECRET_KEYS: '' }, {})).previousSecretKeys).toEqual([]);
  });

  it.each([
    [
      `${A},short-key`,
      /LOOKOUT_PREVIOUS_SECRET_KEYS \(--previous-secret-keys\) must be a comma-separated list .* key 2 has 9/,
    ],
    [Array.from({ length: 11 }, () => A).join(','), /must list at most 10 keys/],
  ])('refuses a wrong LOOKOUT_PREVIOUS_SECRET_KEYS with a message that never shows a key', (value, message) => {
    let caught: unknown;
    try {
      parseConfig(readConfigInput({ LOOKOUT_PREVIOUS_SECRET_KEYS: value }, {}));
    } catch (error) {
      caught = error;
    }
    expect(String(caught)).toMatch(message);
    expect(String(caught)).not.toContain(A);
    expect(String(caught)).not.toContain('short-key');
  });
});
