// Load generator run in a worker thread by throughput.mjs: `connections` clients, each sending
// GET `path` again as soon as its previous answer arrived (a closed loop), over undici's Pool
// with one kept-alive socket per client. Counts the answers that arrived in the measured
// window after a warm-up, and reports them to the parent.
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { origin, path, connections, warmupMs, durationMs } = workerData;
const pool = new Pool(origin, { connections, pipelining: 1 });

let measuring = false;
let stopped = false;
let completed = 0;
let failures = 0;
let firstFailure;
const latencies = [];

async function client() {
  while (!stopped) {
    const started = performance.now();
    try {
      const response = await pool.request({ method: 'GET', path, headers: { accept: 'application/json' } });
      await response.body.text();
      if (!measuring) continue;
      if (response.statusCode === 200) {
        completed += 1;
        latencies.push(performance.now() - started);
      } else {
        failures += 1;
        firstFailure ??= `status ${response.statusCode}`;
      }
    } catch (error) {
      if (!measuring) continue;
      failures += 1;
      firstFailure ??= error instanceof Error ? error.message : String(error);
    }
  }
}

const clients = Array.from({ length: connections }, () => client());
await new Promise((resolve) => setTimeout(resolve, warmupMs));
measuring = true;
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, durationMs));
measuring = false;
const seconds = (performance.now() - started) / 1000;
stopped = true;
await Promise.all(clients);
await pool.close();
parentPort.postMessage({ completed, failures, firstFailure, seconds, latencies });
