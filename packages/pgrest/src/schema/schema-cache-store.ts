import pg from 'pg';
import { buildSchemaCache } from './build-schema-cache.js';
import type { SchemaCache } from './schema-types.js';

/** Minimal logger the engine writes to (compatible with console and pino). */
export type PgrestLogger = {
  warn: (message: string, details?: unknown) => void;
  error: (message: string, details?: unknown) => void;
};

/**
 * Holds the current schema cache, reloads it on demand and on
 * `NOTIFY pgrst, 'reload schema'` (PostgREST's convention), listening on a dedicated
 * connection so a busy pool never delays a reload.
 */
export class SchemaCacheStore {
  private cache: SchemaCache | undefined;
  private listener: pg.Client | undefined;
  private closed = false;
  private reloading: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schemas: string[],
    private readonly logger?: PgrestLogger,
  ) {}

  /** The loaded cache; throws before the first load. */
  get current(): SchemaCache {
    if (!this.cache) throw new Error('schema cache not loaded');
    return this.cache;
  }

  /** Loads (or reloads) the cache; concurrent calls share one load. */
  async reload(): Promise<void> {
    if (this.reloading) return this.reloading;
    this.reloading = (async () => {
      const client = await this.pool.connect();
      try {
        // One snapshot, so tables, keys and views are read consistently.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        this.cache = await buildSchemaCache(client, this.schemas);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  /** Starts listening for reload notifications. */
  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.pool.options);
    client.on('error', (error: Error) => {
      this.logger?.warn('pgrest: schema listener connection lost', error);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    client.on('notification', (message) => {
      if (message.channel !== 'pgrst') return;
      const payload = message.payload ?? '';
      if (payload === '' || payload === 'reload schema') {
        this.reload().catch((error: unknown) => this.logger?.error('pgrest: schema reload failed', error));
      }
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query('LISTEN pgrst');
    } catch (error) {
      this.listener = undefined;
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private scheduleReconnect(client: pg.Client): void {
    if (this.closed || this.listener !== client || this.reconnectTimer) return;
    this.listener = undefined;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      // Changes may have happened while disconnected: reload, then listen again.
      this.listen()
        .then(() => this.reload())
        .catch((error: unknown) => {
          this.logger?.warn('pgrest: schema listener reconnect failed', error);
          if (this.listener) this.scheduleReconnect(this.listener);
          else this.scheduleRetry();
        });
    }, 1000);
    this.reconnectTimer.unref();
  }

  /** Retries `listen()` later (after a failed first attempt). */
  retryListen(): void {
    this.listener = undefined;
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().catch(() => this.scheduleRetry());
    }, 5000);
    this.reconnectTimer.unref();
  }

  /** Stops listening. Does not end the pool. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.listener;
    this.listener = undefined;
    if (client) await client.end().catch(() => undefined);
  }
}
