import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { SecretKeys } from '../crypto/secret-key.js';

/**
 * The outer shape every server module's factory (`createXModule(deps)` in
 * `modules/<x>/<x>-module.ts`) returns, so the composition root (http/app.ts) only composes:
 *
 * - `services`: what other modules may use, passed to them narrowed with `Pick<>`;
 * - `routes(app)`: registers the module's routes (and hooks) on the app;
 * - `bootstrap(context)`: its start-up work against the database (the first admin, the
 *   `lookout-self` canary, ...). `lookout serve` runs it once per start, after migrations and
 *   before listening, module by module in the order http/app.ts builds them; a module reads
 *   what it needs from its deps (`serve`: the configuration) and the shared context;
 * - `start()` / `stop()`: its workers that are not scheduled jobs (queue consumers such as the
 *   check scheduler or the email outbox sender). `lookout serve` starts them only where
 *   background workers run (`--role worker` or `all`) and stops them before the database closes.
 *
 * Scheduled work (roll-ups, retention, purges, syncs) is registered with the jobs module
 * (apps/server/src/jobs) by the factory itself; the jobs module starts and stops it with the
 * same role rule.
 */
export type ServerModule<Services> = {
  services: Services;
  routes: (app: FastifyInstance) => Promise<void>;
  bootstrap: (context: BootstrapContext) => Promise<void>;
  start: () => void;
  stop: () => Promise<void>;
};

/**
 * What `lookout serve` gives the modules it builds (`serve` in their deps): its configuration
 * and what it found at start. Tests and benches build modules without it.
 */
export type ServeContext = {
  config: Config;
  /** The PostgreSQL this process uses: DATABASE_URL, or the embedded one's address. */
  databaseUrl: string;
  /** Whether this process runs background workers (`--role worker` or `all`). */
  workers: boolean;
  /**
   * LOOKOUT_SECRET_KEY (or the one in `<data dir>/secret-key`) and LOOKOUT_PREVIOUS_SECRET_KEYS,
   * resolved once at start (crypto/secret-key.ts). Modules seal with the app's `sealer`; the
   * identity module derives its own keys from these.
   */
  secretKeys: SecretKeys;
};

/**
 * Shared by the modules' bootstrap steps of one start, in module order: what an earlier
 * module's start-up found that a later one acts on.
 */
export type BootstrapContext = {
  /** The first admin identity the identity module created at this start (access gives it the admin role). */
  createdAdminId?: string;
};

/** For modules without start-up work. */
export const noBootstrap = { bootstrap: async () => undefined };

/** For modules without workers. */
export const noWorkers = { start: () => undefined, stop: async () => undefined };
