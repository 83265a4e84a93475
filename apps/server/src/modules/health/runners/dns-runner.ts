import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DnsCheck, DnsQueryType } from '@lookout/contracts';
import {
  dnsAnswerFailure,
  dnsErrorReason,
  dnsServerAddress,
  formatDnsServer,
  formatMx,
  formatSrv,
  formatTxt,
  type DnsRecords,
} from './dns-fns.js';
import { CheckFailure, runProbe } from './runner-harness.js';
import { errorCode, exceedsThreshold, formatMillis, thresholdMessage, truncate } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

const DEFAULT_TIMEOUT_SECONDS = 10;

function query(resolver: Resolver, type: DnsQueryType, name: string): Promise<DnsRecords> {
  switch (type) {
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'MX':
      return resolver.resolveMx(name).then(formatMx);
    case 'TXT':
      return resolver.resolveTxt(name).then(formatTxt);
    case 'NS':
      return resolver.resolveNs(name);
    case 'SRV':
      return resolver.resolveSrv(name).then(formatSrv);
    case 'PTR':
      // canary-checker takes an address for PTR; an in-addr.arpa name works as well.
      return isIP(name) ? resolver.reverse(name) : resolver.resolvePtr(name);
  }
}

async function probe(check: DnsCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const type = check.querytype ?? 'A';
  const timeoutMs = Math.min((check.timeout || DEFAULT_TIMEOUT_SECONDS) * 1000, context.timeoutMs);
  // One try: a retry would hide the slowness the threshold is there to catch.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  let where = '';
  if (check.server) {
    let address = check.server;
    if (!isIP(address)) {
      try {
        address = (await lookup(check.server)).address;
      } catch {
        throw new CheckFailure(`could not resolve the DNS server name ${check.server}`);
      }
    }
    where = formatDnsServer(address, check.port ?? 53);
    resolver.setServers([where]);
  } else if (check.port) {
    const dnsPort = check.port;
    resolver.setServers(resolver.getServers().map((entry) => formatDnsServer(dnsServerAddress(entry), dnsPort)));
  }
  const label = `${type} ${check.query}${where ? ` @${where}` : ''}`;

  // With no server and no port, A and AAAA go through the system resolver the way
  // canary-checker's Go resolver does: the hosts file first (localhost), then DNS.
  const systemLookup = !check.server && !check.port && (type === 'A' || type === 'AAAA');
  const onAbort = () => resolver.cancel();
  context.signal.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  let records: DnsRecords;
  try {
    records = systemLookup
      ? (await lookup(check.query, { all: true, family: type === 'A' ? 4 : 6 })).map((entry) => entry.address)
      : await query(resolver, type, check.query);
  } catch (error) {
    throw new CheckFailure(`${label}: ${dnsErrorReason(errorCode(error), check.query, type, where, timeoutMs)}`, {
      error: error instanceof Error ? error.message : String(error),
    });
  } finally {
    context.signal.removeEventListener('abort', onAbort);
  }
  const elapsedMs = performance.now() - started;

  const failures: string[] = [];
  const answerFailure = dnsAnswerFailure(records, check);
  if (answerFailure) failures.push(answerFailure);
  if (exceedsThreshold(elapsedMs, check.thresholdMillis))
    failures.push(thresholdMessage('lookup', elapsedMs, check.thresholdMillis));
  const detail = {
    query: check.query,
    type,
    server: where || 'system resolver',
    records,
    elapsedMs: Math.round(elapsedMs),
  };
  const durationMs = Math.round(elapsedMs);
  if (failures.length > 0) return { pass: false, message: `${label}: ${failures.join('; ')}`, detail, durationMs };
  return {
    pass: true,
    message: `${label}: ${truncate(records.join(', '), 500)} in ${formatMillis(elapsedMs)}`,
    detail,
    durationMs,
  };
}

/** dns checks: resolve a name against a server and compare the records. */
export const dnsRunner: CheckRunner<'dns'> = {
  type: 'dns',
  run: (check, context) => runProbe({}, context, () => probe(check, context)),
};
