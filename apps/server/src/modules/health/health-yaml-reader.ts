import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readCanaryYaml, type CanaryYamlRead, type YamlLimits } from './health-yaml-fns.js';
import type { YamlJob, YamlJobReply } from './health-yaml-worker.js';

/**
 * Reads canary YAML without stalling the server. Parsing is synchronous: a large document
 * read on the event loop holds up every other request until it is done (a 960 kB body once
 * made `/api/health` wait 7 s). Small texts are read where they arrive, which their bounds
 * keep cheap; larger ones go to one worker thread, one at a time, with a time limit after
 * which the worker is replaced. One thread is enough: a YAML body is an occasional write, and
 * the bounds in `health-yaml-fns.ts` keep each read short.
 */

/** How the reader splits work between the caller's thread and the worker. */
export type YamlReaderOptions = {
  /** Texts of at most this many characters are read on the calling thread (default 64 KiB). */
  inlineMaxLength?: number;
  /** A read the worker has not finished after this long is refused (default 10 s). */
  timeoutMs?: number;
  /** Reads waiting for the worker beyond this many are refused at once (default 16). */
  maxQueued?: number;
};

/** What a read gives: the documents, a bound exceeded, or a refusal because of load or time. */
export type YamlReadOutcome = CanaryYamlRead | { ok: false; limit: 'time' | 'busy'; message: string };

/** Reads YAML texts; `close` stops the worker. */
export type YamlReader = {
  read: (text: string, limits: YamlLimits) => Promise<YamlReadOutcome>;
  close: () => Promise<void>;
};

type PendingRead = {
  job: YamlJob;
  resolve: (outcome: YamlReadOutcome) => void;
  reject: (error: Error) => void;
  worker?: Worker;
  timer?: NodeJS.Timeout;
};

const EXTENSION = path.extname(fileURLToPath(import.meta.url));
/** The worker's entry sits beside this module: `.js` when built, `.ts` when the tests run the sources. */
const WORKER_ENTRY = new URL(`./health-yaml-worker${EXTENSION}`, import.meta.url);

/**
 * Starts the worker thread. The built server runs the compiled `.js` entry. Node cannot load a
 * `.ts` entry, and Node 20 applies no `--import` loader to a worker's entry, so run from the
 * sources (the tests) a small bootstrap loads it through tsx's API (a dev dependency).
 */
function spawnWorker(): Worker {
  if (EXTENSION !== '.ts') return new Worker(WORKER_ENTRY);
  const bootstrap = [
    "import { workerData } from 'node:worker_threads';",
    'const { tsImport } = await import(workerData.tsxApi);',
    'await tsImport(workerData.entry, workerData.parent);',
  ].join('\n');
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
    workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), entry: WORKER_ENTRY.href, parent: import.meta.url },
  });
}

/** Creates a reader; its worker starts with the first large text. */
export function createYamlReader(options: YamlReaderOptions = {}): YamlReader {
  const inlineMaxLength = options.inlineMaxLength ?? 64 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxQueued = options.maxQueued ?? 16;
  const queue: PendingRead[] = [];
  let worker: Worker | undefined;
  let current: PendingRead | undefined;
  let nextId = 1;
  let closed = false;

  const settle = (pending: PendingRead, outcome: { read: YamlReadOutcome } | { error: Error }) => {
    clearTimeout(pending.timer);
    if (current === pending) current = undefined;
    if ('read' in outcome) pending.resolve(outcome.read);
    else pending.reject(outcome.error);
    pump();
    // Idle, the worker must not keep a finished process (`lookout apply`, a test) alive.
    if (!current) worker?.unref();
  };

  const startWorker = (): Worker => {
    const started = spawnWorker();
    started.on('message', (reply: YamlJobReply) => {
      if (!current || current.worker !== started || current.job.id !== reply.id) return;
      settle(current, 'read' in reply ? { read: reply.read } : { error: new Error(reply.error) });
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      if (current?.worker === started) settle(current, { error });
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      if (current?.worker === started)
        settle(current, { error: new Error(`The YAML worker stopped (exit code ${code}).`) });
    });
    return started;
  };

  function pump(): void {
    if (current || closed) return;
    const next = queue.shift();
    if (!next) return;
    current = next;
    worker ??= startWorker();
    // Busy, it keeps the process alive until the answer arrives.
    worker.ref();
    next.worker = worker;
    next.timer = setTimeout(() => {
      // A read this slow is stuck or hostile: give up on it and on the thread running it.
      const stuck = worker;
      worker = undefined;
      settle(next, {
        read: {
          ok: false,
          limit: 'time',
          message: `Reading the YAML took longer than ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}; send a smaller or simpler document.`,
        },
      });
      void stuck?.terminate();
    }, timeoutMs);
    worker.postMessage(next.job);
  }

  return {
    read: (text, limits) => {
      if (closed) return Promise.reject(new Error('The YAML reader is closed.'));
      if (text.length <= inlineMaxLength) {
        try {
          return Promise.resolve(readCanaryYaml(text, limits));
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
      if (queue.length >= maxQueued) {
        return Promise.resolve({
          ok: false,
          limit: 'busy',
          message: 'Too many large YAML documents are being read at once; try again in a moment.',
        });
      }
      return new Promise<YamlReadOutcome>((resolve, reject) => {
        queue.push({ job: { id: nextId++, text, limits }, resolve, reject });
        pump();
      });
    },
    close: async () => {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('The YAML reader is closed.'));
      const running = worker;
      worker = undefined;
      if (current) settle(current, { error: new Error('The YAML reader is closed.') });
      await running?.terminate();
    },
  };
}
