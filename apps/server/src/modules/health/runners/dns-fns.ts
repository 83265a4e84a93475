import { isIP } from 'node:net';
import type { DnsQueryType } from '@lookout/contracts';

/** Records as text, one string per record, in the forms `exactreply` is written in. */
export type DnsRecords = string[];

/** `127.0.0.1:53`, `[::1]:5353`: the form `Resolver.setServers` takes. */
export function formatDnsServer(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/** The address part of an entry of `Resolver.getServers()` (`1.1.1.1`, `1.1.1.1:53`, `[::1]:53`). */
export function dnsServerAddress(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1] as string;
  if (isIP(entry)) return entry;
  return entry.replace(/:\d+$/, '');
}

/** MX as `host preference`, the text canary-checker compares `exactreply` with. */
export function formatMx(records: readonly { exchange: string; priority: number }[]): DnsRecords {
  return records.map((record) => `${record.exchange} ${record.priority}`);
}

/** SRV in zone-file order: `priority weight port target`. */
export function formatSrv(
  records: readonly { priority: number; weight: number; port: number; name: string }[],
): DnsRecords {
  return records.map((record) => `${record.priority} ${record.weight} ${record.port} ${record.name}`);
}

/** TXT records arrive in 255-byte chunks; a record is their concatenation. */
export function formatTxt(records: readonly string[][]): DnsRecords {
  return records.map((chunks) => chunks.join(''));
}

/**
 * Compares an answer with `minrecords` and `exactreply` (order does not matter). Returns the
 * failure reason, or undefined when the answer is acceptable.
 */
export function dnsAnswerFailure(
  records: DnsRecords,
  expectations: { minrecords?: number | undefined; exactreply?: readonly string[] | undefined },
): string | undefined {
  const { minrecords, exactreply } = expectations;
  if (minrecords !== undefined && records.length < minrecords) {
    return `got ${records.length} record${records.length === 1 ? '' : 's'}, expected at least ${minrecords}`;
  }
  if (exactreply && exactreply.length > 0) {
    const got = [...records].sort();
    const expected = [...exactreply].sort();
    if (got.length !== expected.length || got.some((value, index) => value !== expected[index])) {
      return `expected ${expected.join(', ')}, got ${got.length > 0 ? got.join(', ') : 'nothing'}`;
    }
  }
  return undefined;
}

/** A resolver error in words; `where` names the server (`@127.0.0.1:53`) or is empty. */
export function dnsErrorReason(
  code: string | undefined,
  query: string,
  type: DnsQueryType,
  where: string,
  timeoutMs: number,
): string {
  switch (code) {
    case 'ENOTFOUND':
      return `${query} does not exist (NXDOMAIN)`;
    case 'ENODATA':
      return `no ${type} records for ${query}`;
    case 'ETIMEOUT':
      return `no answer${where ? ` from ${where}` : ''} within ${timeoutMs} ms`;
    case 'ECONNREFUSED':
      return `connection refused${where ? ` by ${where}` : ''}`;
    case 'ESERVFAIL':
      return `the server failed to answer (SERVFAIL)`;
    case 'EREFUSED':
      return `the server refused the query (REFUSED)`;
    case 'EFORMERR':
      return `the server rejected the query as malformed (FORMERR)`;
    case 'EBADRESP':
      return `the server sent a malformed answer`;
    case 'EBADNAME':
      return `'${query}' is not a valid name`;
    default:
      return `lookup failed${code ? ` (${code})` : ''}`;
  }
}
