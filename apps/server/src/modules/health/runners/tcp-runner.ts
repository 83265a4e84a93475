import net from 'node:net';
import { splitHostPort, type TcpCheck } from '@lookout/contracts';
import { CheckFailure, runProbe } from './runner-harness.js';
import { describeNetworkError, exceedsThreshold, formatMillis, thresholdMessage } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Opens a connection and closes it again; resolves with the connect time in ms. */
function connect(host: string, port: number, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    const onAbort = () => socket.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    socket.once('connect', () => {
      const elapsed = performance.now() - started;
      done();
      socket.end();
      socket.destroy();
      resolve(elapsed);
    });
    socket.once('error', (error) => {
      done();
      socket.destroy();
      reject(error);
    });
  });
}

async function probe(check: TcpCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const target = splitHostPort(check.endpoint);
  if (!target) throw new CheckFailure(`endpoint '${check.endpoint}' is not host:port`);
  let elapsedMs: number;
  try {
    elapsedMs = await connect(target.host, target.port, context.signal);
  } catch (error) {
    throw new CheckFailure(`could not connect to ${check.endpoint}: ${describeNetworkError(error)}`, {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const detail = { endpoint: check.endpoint, connectMs: Math.round(elapsedMs * 10) / 10 };
  if (exceedsThreshold(elapsedMs, check.thresholdMillis)) {
    return {
      pass: false,
      message: thresholdMessage('connection', elapsedMs, check.thresholdMillis),
      detail,
      durationMs: Math.round(elapsedMs),
    };
  }
  return {
    pass: true,
    message: `connected to ${check.endpoint} in ${formatMillis(elapsedMs)}`,
    detail,
    durationMs: Math.round(elapsedMs),
  };
}

/** tcp checks: a TCP connection to host:port, within `thresholdMillis` when set. */
export const tcpRunner: CheckRunner<'tcp'> = {
  type: 'tcp',
  run: (check, context) => runProbe({}, context, () => probe(check, context)),
};
