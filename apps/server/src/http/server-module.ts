import type { FastifyInstance } from 'fastify';

/**
 * The outer shape every server module's factory (`createXModule(deps)` in
 * `modules/<x>/<x>-module.ts`) returns, so the composition root (http/app.ts) only composes:
 *
 * - `services`: what other modules may use, passed to them narrowed with `Pick<>`;
 * - `routes(app)`: registers the module's routes (and hooks) on the app;
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
  start: () => void;
  stop: () => Promise<void>;
};

/** For modules without workers. */
export const noWorkers = { start: () => undefined, stop: async () => undefined };
