import type { AlertmanagerCheck } from '@lookout/contracts';
import { alertMatcher, firingMessage, toFiringAlert, type AlertmanagerAlert } from './alertmanager-fns.js';
import { fetchJson } from './fetch-json.js';
import { CheckFailure, runProbe } from './runner-harness.js';
import { truncate } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

async function probe(check: AlertmanagerCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const base = check.url ?? check.host ?? '';
  // Silenced and inhibited alerts are someone's known problem, so they do not fail the check.
  const { ok, status, body } = await fetchJson(
    'alertmanager',
    base,
    'api/v2/alerts?active=true&silenced=false&inhibited=false',
    context.signal,
  );
  if (!ok) throw new CheckFailure(`alertmanager answered ${status}: ${truncate(JSON.stringify(body), 300)}`);
  if (!Array.isArray(body)) throw new CheckFailure('alertmanager answered with something other than a list of alerts');
  const all = body as AlertmanagerAlert[];
  const matches = all.filter(alertMatcher(check)).map(toFiringAlert);
  const results = { alerts: matches, total: all.length };
  const detail = { alerts: matches.slice(0, 200), matching: matches.length, active: all.length };
  if (matches.length > 0) {
    return { pass: false, message: truncate(firingMessage(matches), 1000), detail, celVariables: { results } };
  }
  const others =
    all.length > 0 ? ` (${all.length} other active alert${all.length === 1 ? '' : 's'} did not match)` : '';
  return { pass: true, message: `no matching alerts firing${others}`, detail, celVariables: { results } };
}

/** alertmanager checks: fail while alerts matching the filters fire (not silenced or inhibited). */
export const alertmanagerRunner: CheckRunner<'alertmanager'> = {
  type: 'alertmanager',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
