import type { ConnectionType } from '@lookout/contracts';

/**
 * A connection as a tester sees it: every reference resolved and every sealed value opened
 * (the connections service hydrates it just before the test and drops it right after).
 */
export type ConnectionUnderTest = {
  type: ConnectionType;
  name: string;
  namespace: string;
  url?: string;
  username?: string;
  password?: string;
  certificate?: string;
  insecureTls: boolean;
  properties: Readonly<Record<string, string>>;
};

export type TesterContext = {
  /** Aborted when the test's time is up; a tester closes its sockets when it fires. */
  signal: AbortSignal;
  timeoutMs: number;
};

/**
 * Connects to the service the way Lookout would use it and makes its cheapest harmless call.
 * Resolves when the service accepted the connection and the credentials; rejects with an
 * Error whose message is the server's own answer (wrong password, unknown host, ...), which
 * `POST /api/connection/test/{id}` returns to the user as it is.
 */
export type ConnectionTester = (connection: ConnectionUnderTest, context: TesterContext) => Promise<void>;
