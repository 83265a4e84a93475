import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/transaction.js';
import { createCredentialsRepository } from './credentials-repository.js';
import { createMirroredIdentitiesRepository } from './external-kratos/mirrored-identities-repository.js';
import { createFlowsRepository } from './flows-repository.js';
import { createIdentitiesRepository } from './identities-repository.js';
import { createRateLimitsRepository } from './rate-limits-repository.js';
import { createSessionsRepository } from './sessions-repository.js';

/**
 * SQL of the identity service, one file per group of tables (identities and addresses,
 * credentials, sessions, flows and codes, rate limits, the copies of an external Kratos's
 * identities), composed here into one repository. Every method takes an optional
 * transaction client.
 */

/** How long the email outbox keeps a message (sent, abandoned or still queued). */
export const COURIER_RETENTION_DAYS = 30;

export type { Queryable };

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;

export function createIdentityRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),
    ...createIdentitiesRepository(pool),
    ...createCredentialsRepository(pool),
    ...createSessionsRepository(pool),
    ...createFlowsRepository(pool),
    ...createMirroredIdentitiesRepository(pool),
    ...createRateLimitsRepository(pool),

    /** Removes expired flows, sessions, counters and old outbox messages; returns rows removed. */
    async purgeExpired(tx?: Queryable): Promise<number> {
      let removed = 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_flows WHERE expires_at < now() - interval '1 day'`)).rowCount ?? 0;
      removed +=
        (
          await db(tx).query(
            `DELETE FROM identity_sessions WHERE expires_at < now() - interval '7 days' OR (NOT active AND updated_at < now() - interval '7 days')`,
          )
        ).rowCount ?? 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_rate_limits WHERE window_start < now() - interval '1 day'`))
          .rowCount ?? 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_flow_errors WHERE created_at < now() - interval '7 days'`))
          .rowCount ?? 0;
      // The email outbox: its codes and invitation links expired long before (7 days at most).
      removed +=
        (
          await db(tx).query(
            `DELETE FROM identity_courier_messages WHERE created_at < now() - interval '${COURIER_RETENTION_DAYS} days'`,
          )
        ).rowCount ?? 0;
      return removed;
    },
  };
}
