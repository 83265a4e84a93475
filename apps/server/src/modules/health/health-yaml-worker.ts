import { parentPort } from 'node:worker_threads';
import { readCanaryYaml, type CanaryYamlRead, type YamlLimits } from './health-yaml-fns.js';

/**
 * The worker thread of `health-yaml-reader.ts`: reads one YAML text per message, off the
 * server's event loop, and answers with what `readCanaryYaml` found.
 */

/** A request to the worker. */
export type YamlJob = { id: number; text: string; limits: YamlLimits };
/** The worker's answer to job `id`. */
export type YamlJobReply = { id: number; read: CanaryYamlRead } | { id: number; error: string };

parentPort?.on('message', (job: YamlJob) => {
  let reply: YamlJobReply;
  try {
    reply = { id: job.id, read: readCanaryYaml(job.text, job.limits) };
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
