// Throughput of an HTTP endpoint under concurrent load: requests per second answered with 200
// by `connections` clients in a closed loop (each sends its next request when the previous
// answer arrived). The clients run in a worker thread, so their event loop is not the one of a
// server living in the benchmark's own process.
import { Worker } from 'node:worker_threads';
import { median, percentile, round } from './stats.mjs';

const workerUrl = new URL('./throughput-worker.mjs', import.meta.url);

/**
 * @param {{ origin: string, path: string, connections: number, warmupMs: number, durationMs: number }} options
 * @returns {Promise<{ requestsPerSecond: number, requests: number, seconds: number, medianMs: number, p95Ms: number }>}
 */
export function measureThroughput(options) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: options });
    worker.once('error', reject);
    worker.once('message', (result) => {
      if (result.failures > 0) {
        reject(new Error(`GET ${options.path}: ${result.failures} failed requests (first: ${result.firstFailure})`));
        return;
      }
      resolve({
        requestsPerSecond: round(result.completed / result.seconds),
        requests: result.completed,
        seconds: round(result.seconds),
        medianMs: round(median(result.latencies)),
        p95Ms: round(percentile(result.latencies, 95)),
      });
    });
  });
}
