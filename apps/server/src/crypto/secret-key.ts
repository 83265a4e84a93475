import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * The installation's secret key, resolved once by `lookout serve` (server.ts) and shared by
 * every module: the identity service derives its TOTP-seed box and code HMAC from it, and the
 * one {@link import('./sealed-values.js').Sealer} of the app seals stored credentials with it.
 * Replicas on one database must share it (docs/secrets.md, docs/identity.md).
 */

/** The setting that replicas must share; every message about the key names it. */
export const SECRET_KEY_SETTING = 'LOOKOUT_SECRET_KEY';
/** The keys a rotation replaces; values sealed under them still open and are re-sealed at start. */
export const PREVIOUS_SECRET_KEYS_SETTING = 'LOOKOUT_PREVIOUS_SECRET_KEYS';
/** Where the key is generated when LOOKOUT_SECRET_KEY is not set: `<data dir>/secret-key`. */
export const SECRET_KEY_FILE = 'secret-key';

/** The key this process seals with, the ones it still opens, and where the key came from. */
export type SecretKeys = {
  current: string;
  /** LOOKOUT_PREVIOUS_SECRET_KEYS without the current key; oldest last as given. */
  previous: string[];
  /** Set when the current key was read from (or generated into) `<data dir>/secret-key`. */
  keyFile?: string;
};

/**
 * LOOKOUT_SECRET_KEY, or the key kept in `<data dir>/secret-key` (generated on first start,
 * mode 0600). Replicas sharing one database must share LOOKOUT_SECRET_KEY.
 */
export async function resolveSecretKey(options: {
  secretKey?: string;
  dataDir: string;
  logger?: Pick<Logger, 'info'>;
}): Promise<string> {
  if (options.secretKey) return options.secretKey;
  const file = path.join(options.dataDir, SECRET_KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(options.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    // 'wx' fails when another process created the file first; then its key is used.
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    options.logger?.info({ file }, 'Generated the secret key that encrypts stored secrets');
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}

/** The current key (from the setting or the data directory) and the previous ones. */
export async function resolveSecretKeys(
  config: { secretKey?: string | undefined; previousSecretKeys?: readonly string[]; dataDir: string },
  logger?: Pick<Logger, 'info'>,
): Promise<SecretKeys> {
  const current = await resolveSecretKey({
    ...(config.secretKey ? { secretKey: config.secretKey } : {}),
    dataDir: config.dataDir,
    ...(logger ? { logger } : {}),
  });
  // Listing the current key among the previous ones changes nothing, so it is dropped.
  const previous = [...new Set(config.previousSecretKeys ?? [])].filter((key) => key !== current);
  return {
    current,
    previous,
    ...(config.secretKey ? {} : { keyFile: path.join(config.dataDir, SECRET_KEY_FILE) }),
  };
}
