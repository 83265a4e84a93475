import { randomBytes } from 'node:crypto';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { launchBrowser, signIn } from './browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './lookout-server.js';

/** The admin every session's server creates on first start. */
export const ADMIN = { email: 'admin@example.com', password: 'Lookout-admin-e2e-1' } as const;

export type ConsoleSession = {
  server: LookoutServer;
  /** A client on the test's own PostgreSQL, to write and read rows (not with `postgres: false`). */
  db: pg.Client;
  /** That PostgreSQL's address, for a pool of the test's own. */
  databaseUrl: string;
  /**
   * Launches Chromium and a context on it, and signs the admin in unless told not to. A
   * separate step, so a test can write its rows before the console's first page loads.
   */
  openBrowser: (
    context: BrowserContextOptions,
    options?: { signIn?: boolean },
  ) => Promise<{ browser: Browser; context: BrowserContext }>;
  /** Closes the browser, then the server and its PostgreSQL; never throws (afterAll). */
  stop: () => Promise<void>;
};

export type ConsoleOptions = {
  /** false: the server's embedded PostgreSQL, as a plain installation runs; no `db` then. */
  postgres?: boolean;
  /** More server environment. */
  env?: Record<string, string>;
  /** More `postgres` flags for the test's own PostgreSQL. */
  postgresFlags?: readonly string[];
};

/**
 * The start-up most browser journeys share: the built server with the admin on a fresh data
 * directory, by default on a PostgreSQL of the test's own. The browser is a second step
 * (`openBrowser`); `stop()` in afterAll ends it all, and a failed start ends what it began.
 */
export async function startConsole(options: ConsoleOptions = {}): Promise<ConsoleSession> {
  // Run in reverse by stop(), so each thing goes before what it depends on.
  const cleanups: Array<() => Promise<unknown>> = [];
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    let postgres: { url: string; db: pg.Client } | undefined;
    if (options.postgres !== false) {
      const cluster = await startTestPostgres({ prefix: 'lookout-e2e-', extraFlags: options.postgresFlags });
      cleanups.push(cluster.stop);
      postgres = { url: cluster.url, db: new pg.Client({ connectionString: cluster.url }) };
    }
    const data = await makeDataDir();
    cleanups.push(data.remove);
    const server = await startLookout({
      dataDir: data.dir,
      env: {
        // Configured as a deployment on a shared PostgreSQL is (docs/deployment.md): the key
        // every replica on it needs comes from the environment, not the data directory.
        ...(postgres && { DATABASE_URL: postgres.url, LOOKOUT_SECRET_KEY: randomBytes(32).toString('hex') }),
        LOOKOUT_ADMIN_EMAIL: ADMIN.email,
        LOOKOUT_ADMIN_PASSWORD: ADMIN.password,
        ...options.env,
      },
    });
    cleanups.push(() => server.stop());
    if (postgres) {
      const { db } = postgres;
      await db.connect();
      cleanups.push(() => db.end());
    }

    const own = () => {
      if (!postgres) throw new Error('startConsole({ postgres: false }) has no PostgreSQL of its own');
      return postgres;
    };
    return {
      server,
      get db() {
        return own().db;
      },
      get databaseUrl() {
        return own().url;
      },
      openBrowser: async (contextOptions, { signIn: signingIn = true } = {}) => {
        const launched = await launchBrowser();
        browser = launched;
        const context = await launched.newContext(contextOptions);
        if (signingIn) {
          const page = await context.newPage();
          await signIn(page, server.url, ADMIN.email, ADMIN.password);
          await page.close();
        }
        return { browser: launched, context };
      },
      stop,
    };
  } catch (error) {
    // afterAll never sees a session that failed to start: stop what did start.
    await stop();
    throw error;
  }
}
