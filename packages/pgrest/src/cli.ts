#!/usr/bin/env node
import { runCli } from './standalone/cli.js';

// Entry point of the `pgrest` bin: run until SIGINT/SIGTERM, then close connections cleanly.
const result = await runCli(process.argv.slice(2), process.env);
if (typeof result === 'number') {
  process.exitCode = result;
} else {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`pgrest: ${signal} received, shutting down\n`);
    result.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`pgrest: error while shutting down: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
