import type { ConnectionTester } from './tester.js';
import { httpGet, httpRequestOf, statusMessage } from './http-get.js';

/**
 * HTTP(S): GETs the url with the connection's credentials (basic auth for a user and password,
 * a bearer token for a password alone or a `bearer`/`token` property), verifying TLS unless the
 * connection allows insecure TLS. Any answer below 400 is ok; otherwise the status and the
 * start of the server's body (`401 Unauthorized: …`), or the network error.
 */
export const testHttpConnection: ConnectionTester = async (connection, { signal }) => {
  const { url, headers } = httpRequestOf(connection);
  const answer = await httpGet(url, { headers, insecureTls: connection.insecureTls, signal });
  if (answer.status >= 400) throw new Error(statusMessage(answer));
};
