import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import { isConnectionReference } from './connection-api.js';
import {
  boundedString,
  checkBaseShape,
  connectionReferenceSchema,
  count,
  hostPortSchema,
  secretOrValueSchema,
  templatableShape,
} from './canary-fields.js';

/** Canary check types that query a data store: postgres, mysql and redis. */

/**
 * `spec.postgres[]` and `spec.mysql[]`: connect, run `query` and expect at least `results` rows.
 * `url` (or canary-checker's `connection` holding a URL) may contain `$(username)` and
 * `$(password)`, filled from the secret-or-value fields of the same names. Either may instead
 * name a connection, `connection://<namespace>/<name>`, whose url and credentials are used
 * (the check's own username and password win).
 */
const sqlCheckShape = {
  ...checkBaseShape,
  ...templatableShape,
  url: boundedString(CANARY_LIMITS.urlLength).optional(),
  connection: boundedString(CANARY_LIMITS.urlLength).optional(),
  username: secretOrValueSchema(1024).optional(),
  password: secretOrValueSchema(1024).optional(),
  query: boundedString(CANARY_LIMITS.queryLength).optional(),
  /** Minimum number of rows the query must return. */
  results: count(1_000_000).optional(),
};
const sqlUrlRule =
  (schemes: readonly string[]) =>
  (check: { url?: string | undefined; connection?: string | undefined }, ctx: z.RefinementCtx) => {
    const field = check.url ? 'url' : 'connection';
    const value = check.url ?? check.connection;
    if (!value) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
      return;
    }
    if (check.url && check.connection) {
      ctx.addIssue({ code: 'custom', path: ['connection'], message: 'cannot be set together with url; use url only' });
      return;
    }
    // A connection (`connection://<namespace>/<name>`) is read when the check runs.
    if (isConnectionReference(value)) return;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
    if (!scheme || !schemes.includes(scheme)) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}, or connection://<namespace>/<name>`,
      });
    }
  };
/** One postgres check. */
export const postgresCheckSchema = z.strictObject(sqlCheckShape).superRefine(sqlUrlRule(['postgres', 'postgresql']));
/** One postgres check. */
export type PostgresCheck = z.infer<typeof postgresCheckSchema>;
/** One mysql (or MariaDB) check. */
export const mysqlCheckSchema = z.strictObject(sqlCheckShape).superRefine(sqlUrlRule(['mysql', 'mariadb']));
/** One mysql (or MariaDB) check. */
export type MysqlCheck = z.infer<typeof mysqlCheckSchema>;

/**
 * `spec.redis[]`: connect to `addr` (host:port), select `db` and PING; or to the redis a
 * `connection` (`connection://<namespace>/<name>`) names, with its credentials.
 */
export const redisCheckSchema = z
  .strictObject({
    ...checkBaseShape,
    addr: hostPortSchema.optional(),
    connection: connectionReferenceSchema.optional(),
    db: count(10_000).optional(),
    username: secretOrValueSchema(1024).optional(),
    password: secretOrValueSchema(1024).optional(),
  })
  .superRefine((check, ctx) => {
    if (!check.addr && !check.connection) ctx.addIssue({ code: 'custom', path: ['addr'], message: 'is required' });
  });
/** One redis check. */
export type RedisCheck = z.infer<typeof redisCheckSchema>;
