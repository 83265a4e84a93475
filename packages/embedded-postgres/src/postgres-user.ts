import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { Logger } from 'pino';

const run = promisify(execFile);

/** The OS account PostgreSQL runs as when Lookout runs as root. */
export const POSTGRES_OS_USER = 'postgres';

/** Who PostgreSQL runs as: another account (when Lookout is root), or undefined for this process's own. */
export type RunAs = { name: string; uid: number; gid: number } | undefined;

/**
 * PostgreSQL refuses to run as root. Lookout started as root (the usual container case) runs it
 * as the `postgres` account instead, creating that account (without a home or a login shell)
 * when the machine has none.
 */
export async function postgresRunAs(logger: Logger): Promise<RunAs> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupUser(POSTGRES_OS_USER);
  if (existing) return existing;
  logger.info({ user: POSTGRES_OS_USER }, 'Creating the OS account the embedded PostgreSQL runs as');
  try {
    if (!(await groupExists(POSTGRES_OS_USER))) await run('groupadd', ['--system', POSTGRES_OS_USER]);
    await run('useradd', [
      '--system',
      '--gid',
      POSTGRES_OS_USER,
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      POSTGRES_OS_USER,
    ]);
  } catch (error) {
    throw new Error(
      `PostgreSQL cannot run as root, and Lookout could not create the '${POSTGRES_OS_USER}' OS account for it ` +
        `(${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Create it (useradd --system ${POSTGRES_OS_USER}), ` +
        `run Lookout as another user, or set DATABASE_URL.`,
    );
  }
  const created = await lookupUser(POSTGRES_OS_USER);
  if (!created) throw new Error(`The '${POSTGRES_OS_USER}' OS account was created but cannot be found.`);
  return created;
}

async function lookupUser(name: string): Promise<RunAs> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function groupExists(name: string): Promise<boolean> {
  try {
    await run('getent', ['group', name]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `runAs` may search (`x`) every folder on the way to `target` and `target` itself:
 * a folder it can enter, or a program it can run. Asked of the system as that account (with
 * the same groups PostgreSQL gets), so ACLs and mount options count as they will.
 */
export function canReach(runAs: RunAs, target: string): boolean {
  if (!runAs) return true;
  const result = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', target], {
    uid: runAs.uid,
    gid: runAs.gid,
    cwd: '/',
    stdio: 'ignore',
    env: { PATH: '/usr/bin:/bin' },
  });
  return result.status === 0;
}
