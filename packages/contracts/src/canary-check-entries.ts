import type { CanaryCheckType } from './canary-constants.js';
import type { CanaryCheckSpecs, CanarySpec } from './canary.js';
import { maskSecretText, redactUrl } from './secret-mask.js';

/** Helpers for code that walks a canary's checks. */

/** One check of a canary with its type, in spec order. */
export type CanaryCheckEntry = {
  [K in CanaryCheckType]: { type: K; check: CanaryCheckSpecs[K] };
}[CanaryCheckType];

/** Lists a canary's checks with their types, in the order of {@link CANARY_CHECK_TYPES}. */
export function listCanaryChecks(spec: CanarySpec): CanaryCheckEntry[] {
  const entries: CanaryCheckEntry[] = [];
  const push = <K extends CanaryCheckType>(type: K, checks: readonly CanaryCheckSpecs[K][] | undefined) => {
    for (const check of checks ?? []) entries.push({ type, check } as CanaryCheckEntry);
  };
  push('http', spec.http);
  push('tcp', spec.tcp);
  push('icmp', spec.icmp);
  push('dns', spec.dns);
  push('exec', spec.exec);
  push('postgres', spec.postgres);
  push('mysql', spec.mysql);
  push('redis', spec.redis);
  push('folder', spec.folder);
  push('prometheus', spec.prometheus);
  push('alertmanager', spec.alertmanager);
  return entries;
}

/**
 * The endpoint a check shows in lists (the `endpoint` column of `checks`, which every role
 * reads), with any password in a URL redacted and any credential written inline in it masked
 * ({@link maskSecretText}: the first line of an exec script, a token in a query string).
 */
export function checkEndpoint(entry: CanaryCheckEntry): string {
  return maskSecretText(unmaskedEndpoint(entry));
}

function unmaskedEndpoint(entry: CanaryCheckEntry): string {
  switch (entry.type) {
    case 'http':
      return redactUrl(entry.check.url ?? entry.check.endpoint ?? entry.check.connection ?? '');
    case 'tcp':
    case 'icmp':
      return entry.check.endpoint;
    case 'dns': {
      const { querytype = 'A', query, server, port: dnsPort } = entry.check;
      return `${querytype}/${query}${server ? `@${server}${dnsPort ? `:${dnsPort}` : ''}` : ''}`;
    }
    case 'exec':
      return entry.check.script.split('\n')[0]?.slice(0, 200) ?? '';
    case 'postgres':
    case 'mysql':
      return redactUrl(entry.check.url ?? entry.check.connection ?? '');
    case 'redis':
      return entry.check.addr ?? entry.check.connection ?? '';
    case 'folder':
      return entry.check.path;
    case 'prometheus':
    case 'alertmanager':
      return redactUrl(entry.check.url ?? entry.check.host ?? entry.check.connection ?? '');
  }
}
