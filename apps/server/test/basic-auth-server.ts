import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type BasicAuthServer = {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** How many requests came with the right credentials, and with wrong or none. */
  counts: { accepted: number; refused: number };
  close: () => Promise<void>;
};

/**
 * A real HTTP server on loopback that answers 200 only to HTTP basic authentication with
 * `username` and `password`, and 401 with a challenge otherwise: what a check's
 * `authentication` must get right.
 */
export async function startBasicAuthServer(username: string, password: string): Promise<BasicAuthServer> {
  const expected = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  const counts = { accepted: 0, refused: 0 };
  const server = http.createServer((request, response) => {
    if (request.headers.authorization === expected) {
      counts.accepted += 1;
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('welcome');
      return;
    }
    counts.refused += 1;
    response.writeHead(401, { 'www-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' });
    response.end('who are you?');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
