import type pg from 'pg';
import type { Logger } from 'pino';

export type NotificationListener = {
  /**
   * Calls `onNotify` with the payload of each notification on `channel` (a fixed identifier);
   * returns the function that stops it.
   */
  subscribe: (channel: string, onNotify: (payload: string) => void) => () => void;
  /** Ends this listener's subscriptions; the connection goes back once no listener needs it. */
  close: () => Promise<void>;
};

/**
 * The connection every listener of a pool shares, and how many listeners use it. The event
 * queue, the outbox sender, the playbook executor and the check workers each listen; with a
 * connection each they held up to four of the pool's connections for good, which left a small
 * pool (the tests' five) too few for the work itself.
 */
const sharedByPool = new WeakMap<
  pg.Pool,
  { connection: ReturnType<typeof createListeningConnection>; users: number }
>();

/**
 * A listener on the pool's one LISTEN connection (shared, reconnected; polling covers the gaps,
 * ADR 0003). Each caller closes its own; the last close gives the connection back.
 */
export function createNotificationListener(pool: pg.Pool, logger: Logger): NotificationListener {
  let shared = sharedByPool.get(pool);
  if (!shared) {
    shared = { connection: createListeningConnection(pool, logger), users: 0 };
    sharedByPool.set(pool, shared);
  }
  const { connection } = shared;
  const entry = shared;
  entry.users += 1;
  const stops = new Set<() => void>();
  let closed = false;
  return {
    subscribe(channel, onNotify) {
      // A function of its own, so the same handler subscribed by two listeners stops once each.
      const stop = connection.subscribe(channel, (payload) => onNotify(payload));
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of stops) stop();
      stops.clear();
      entry.users -= 1;
      if (entry.users > 0) return;
      if (sharedByPool.get(pool) === entry) sharedByPool.delete(pool);
      await connection.close();
    },
  };
}

/** Keeps one connection LISTENing and reconnects it. */
function createListeningConnection(pool: pg.Pool, logger: Logger) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.PoolClient | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  // The error handler of each connection taken, removed when close() gives one back to the
  // pool: a pooled connection must not carry it to its next user.
  const errorHandlers = new WeakMap<pg.PoolClient, (error: Error) => void>();

  const onNotification = (message: pg.Notification) => {
    for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
  };

  async function connect(): Promise<void> {
    if (closed || client) return;
    let next: pg.PoolClient | undefined;
    try {
      next = await pool.connect();
      next.on('notification', onNotification);
      const taken = next;
      const onError = (error: Error) => {
        logger.warn({ err: error }, 'The notification connection failed; reconnecting');
        drop(taken, error);
        scheduleReconnect();
      };
      errorHandlers.set(taken, onError);
      taken.on('error', onError);
      for (const channel of handlers.keys()) await next.query(`LISTEN ${channel}`);
      client = next;
    } catch (error) {
      if (next) drop(next, error instanceof Error ? error : new Error(String(error)));
      logger.warn({ err: error }, 'Could not listen for notifications; polling until it works');
      scheduleReconnect();
    }
  }

  function drop(target: pg.PoolClient | undefined, error?: Error) {
    if (!target) return;
    target.removeListener('notification', onNotification);
    if (client === target) client = undefined;
    releaseOnce(target, error ?? true);
  }

  /** The connection's error handler and close() may both give it back: the second is a no-op. */
  function releaseOnce(target: pg.PoolClient, destroy?: Error | boolean) {
    try {
      target.release(destroy);
    } catch {
      // Already released.
    }
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, 2_000);
    retryTimer.unref();
  }

  return {
    /**
     * Calls `onNotify` with the payload of each notification on `channel` (a fixed
     * identifier); the event queue routes by it (the event's name).
     */
    subscribe(channel: string, onNotify: (payload: string) => void): () => void {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
      const set = handlers.get(channel) ?? new Set();
      const isNew = !handlers.has(channel);
      set.add(onNotify);
      handlers.set(channel, set);
      if (isNew && client) void client.query(`LISTEN ${channel}`).catch(() => undefined);
      if (!client && !connecting) connecting = connect();
      return () => set.delete(onNotify);
    },
    async close(): Promise<void> {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await connecting?.catch(() => undefined);
      if (client) {
        const current = client;
        client = undefined;
        current.removeListener('notification', onNotification);
        // Back to the pool as an ordinary idle connection, which the pool then closes cleanly.
        const unlistened = await current.query('UNLISTEN *').then(
          () => true,
          () => false,
        );
        if (unlistened) {
          const onError = errorHandlers.get(current);
          if (onError) current.removeListener('error', onError);
        }
        releaseOnce(current, unlistened ? undefined : true);
      }
    },
  };
}
