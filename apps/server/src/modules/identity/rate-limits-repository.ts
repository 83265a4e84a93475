import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

/** SQL of `identity_rate_limits`, the counters every replica shares. */
export function createRateLimitsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /**
     * Counts one hit in a fixed window; returns the hits in the window so far and the seconds
     * until the window ends (what a refusal's Retry-After says).
     */
    async hitRateLimit(
      bucket: string,
      key: string,
      windowMs: number,
      tx?: Queryable,
    ): Promise<{ hits: number; retryAfterSeconds: number }> {
      const result = await db(tx).query<{ hits: number; retry_after: number }>(
        `INSERT INTO identity_rate_limits (bucket, key, window_start, hits) VALUES ($1, $2, now(), 1)
         ON CONFLICT (bucket, key) DO UPDATE SET
           hits = CASE WHEN identity_rate_limits.window_start < now() - make_interval(secs => $3 / 1000.0) THEN 1 ELSE identity_rate_limits.hits + 1 END,
           window_start = CASE WHEN identity_rate_limits.window_start < now() - make_interval(secs => $3 / 1000.0) THEN now() ELSE identity_rate_limits.window_start END
         RETURNING hits,
           GREATEST(1, ceil(extract(epoch FROM window_start + make_interval(secs => $3 / 1000.0) - now())))::integer AS retry_after`,
        [bucket, key.slice(0, 500), windowMs],
      );
      const row = result.rows[0]!;
      return { hits: row.hits, retryAfterSeconds: row.retry_after };
    },
  };
}
