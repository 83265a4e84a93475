import { formatMillis } from './runner-fns.js';

/** What `ping` reported. */
export type PingSummary = {
  /** The address the host name resolved to, when ping printed it. */
  address: string | undefined;
  transmitted: number;
  received: number;
  lossPercent: number;
  rtt: { min: number; avg: number; max: number } | undefined;
};

/** Seconds between echo requests: the shortest interval iputils allows without root. */
export const PING_INTERVAL_SECONDS = 0.2;
/** Seconds to wait for each reply. */
export const PING_REPLY_WAIT_SECONDS = 2;

/**
 * Arguments for iputils `ping`: numeric output, `count` probes, and a deadline that fits inside
 * the check's budget so ping ends on its own with a summary instead of being killed.
 */
export function pingArguments(endpoint: string, count: number, timeoutMs: number): string[] {
  const needed = Math.ceil(count * PING_INTERVAL_SECONDS + PING_REPLY_WAIT_SECONDS);
  const budget = Math.max(1, Math.floor(timeoutMs / 1000) - 1);
  const deadline = Math.max(1, Math.min(needed, budget));
  return [
    '-n',
    '-c',
    String(count),
    '-i',
    String(PING_INTERVAL_SECONDS),
    '-W',
    String(PING_REPLY_WAIT_SECONDS),
    '-w',
    String(deadline),
    endpoint,
  ];
}

/** Parses iputils (and BusyBox) ping output; undefined when there is no statistics line. */
export function parsePingOutput(output: string): PingSummary | undefined {
  const stats = /(\d+) packets transmitted, (\d+) (?:packets )?received.*?([\d.]+)% packet loss/.exec(output);
  if (!stats) return undefined;
  const rtt = /(?:rtt|round-trip) min\/avg\/max(?:\/mdev)? = ([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(output);
  const address = /^PING \S+ \(([^)]+)\)/m.exec(output)?.[1];
  return {
    address,
    transmitted: Number(stats[1]),
    received: Number(stats[2]),
    lossPercent: Number(stats[3]),
    rtt: rtt ? { min: Number(rtt[1]), avg: Number(rtt[2]), max: Number(rtt[3]) } : undefined,
  };
}

/** Judges a ping summary against the check's thresholds; returns the failure reasons. */
export function pingFailures(
  summary: PingSummary,
  thresholds: { packetLossThreshold?: number | undefined; thresholdMillis?: number | undefined },
): string[] {
  const failures: string[] = [];
  const allowedLoss = thresholds.packetLossThreshold ?? 0;
  if (summary.lossPercent > allowedLoss) {
    failures.push(
      `packet loss ${summary.lossPercent}%, threshold ${allowedLoss}% (${summary.received}/${summary.transmitted} replies)`,
    );
  }
  if (summary.rtt && thresholds.thresholdMillis && summary.rtt.avg > thresholds.thresholdMillis) {
    failures.push(`average round trip ${formatMillis(summary.rtt.avg)}, threshold ${thresholds.thresholdMillis} ms`);
  }
  return failures;
}

/** Reads ping's complaint about a host it could not resolve or reach, from its stderr. */
export function pingErrorReason(endpoint: string, stderr: string): string | undefined {
  if (/unknown host|Name or service not known|not known|Temporary failure in name resolution/i.test(stderr)) {
    return `could not resolve host ${endpoint}`;
  }
  if (/Operation not permitted|permission denied/i.test(stderr)) {
    return 'ping is not permitted for this user (it needs CAP_NET_RAW or net.ipv4.ping_group_range)';
  }
  const line = stderr.trim().split('\n')[0];
  return line ? line.replace(/^ping: /, '') : undefined;
}
