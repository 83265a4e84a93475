import { spawn } from 'node:child_process';
import type { IcmpCheck } from '@lookout/contracts';
import { parsePingOutput, pingArguments, pingErrorReason, pingFailures } from './icmp-fns.js';
import { CheckFailure, runProbe } from './runner-harness.js';
import { formatMillis } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** The ping binary; iputils-ping on Debian. Overridable for systems that keep it elsewhere. */
const PING_BINARY = process.env.LOOKOUT_PING_PATH ?? 'ping';
const DEFAULT_PACKET_COUNT = 3;

type PingRun = { code: number | null; stdout: string; stderr: string };

/**
 * Runs the system `ping` rather than opening raw ICMP sockets ourselves: raw sockets need root
 * or CAP_NET_RAW for the whole server, while Debian's ping carries that capability itself.
 */
function runPing(args: string[], signal: AbortSignal): Promise<PingRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(PING_BINARY, args, {
      signal,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function probe(check: IcmpCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const count = check.packetCount ?? DEFAULT_PACKET_COUNT;
  let run: PingRun;
  try {
    run = await runPing(pingArguments(check.endpoint, count, context.timeoutMs), context.signal);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') {
      throw new CheckFailure('ping is not installed on this server (install the iputils-ping package)');
    }
    throw error;
  }
  const summary = parsePingOutput(run.stdout);
  if (!summary) {
    const reason = pingErrorReason(check.endpoint, run.stderr) ?? `ping exited with code ${run.code ?? 'unknown'}`;
    throw new CheckFailure(reason, { error: run.stderr.trim() || run.stdout.trim() });
  }
  const target =
    summary.address && summary.address !== check.endpoint ? `${check.endpoint} (${summary.address})` : check.endpoint;
  const failures = pingFailures(summary, check);
  const detail = { endpoint: check.endpoint, ...summary };
  const durationMs = summary.rtt ? Math.round(summary.rtt.avg) : undefined;
  if (failures.length > 0) {
    return {
      pass: false,
      message: `${target}: ${failures.join('; ')}`,
      detail,
      ...(durationMs === undefined ? {} : { durationMs }),
    };
  }
  const average = summary.rtt ? `, average ${formatMillis(summary.rtt.avg)}` : '';
  return {
    pass: true,
    message: `${summary.received}/${summary.transmitted} replies from ${target}${average}`,
    detail,
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

/** icmp checks: packet loss and average round trip from the system ping. */
export const icmpRunner: CheckRunner<'icmp'> = {
  type: 'icmp',
  run: (check, context) => runProbe({}, context, () => probe(check, context)),
};
