import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type SilentTcpServer = {
  port: number;
  /** Resolves once a client has connected and every connected client has closed its socket. */
  allClosed: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * A TCP server on a free loopback port that accepts connections and never says a word: what a
 * connection tester meets when a service hangs. Tests abort the tester and then wait for
 * `allClosed` to prove it closed its socket.
 */
export function startSilentTcpServer(): Promise<SilentTcpServer> {
  const open = new Set<net.Socket>();
  let connected = false;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (!connected || open.size > 0) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };
  const server = net.createServer((socket) => {
    connected = true;
    open.add(socket);
    socket.on('error', () => undefined);
    // Read and drop what the client sends: a socket with unread data never reports its end.
    socket.resume();
    socket.on('close', () => {
      open.delete(socket);
      settle();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        allClosed: () =>
          new Promise<void>((done) => {
            waiters.push(done);
            settle();
          }),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
