import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

export type GitHttpServer = {
  /** http://127.0.0.1:<port> ; repositories are under it by their folder name. */
  url: string;
  /** Requests seen, with the user that each one authenticated as (or '-' for none). */
  requests: { method: string; path: string; user: string }[];
  close: () => Promise<void>;
};

/**
 * Git's smart HTTP protocol for the repositories under `projectRoot`: a node HTTP server that
 * runs git's own `git http-backend` as a CGI program for every request, behind HTTP basic auth
 * with one user and password (401 with a realm otherwise, as a forge answers).
 */
export function startGitHttpServer(
  projectRoot: string,
  credentials: { user: string; password: string },
): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const authorised = request.headers.authorization === expected;
    requests.push({ method: request.method ?? 'GET', path: url.pathname, user: authorised ? credentials.user : '-' });
    if (!authorised) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('Unauthorized');
      return;
    }
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        REMOTE_USER: credentials.user,
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    request.pipe(cgi.stdin);
    // A CGI answer: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else response.setHeader(name, value);
      }
      response.writeHead(status);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!headersSent) response.writeHead(502);
      response.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}
