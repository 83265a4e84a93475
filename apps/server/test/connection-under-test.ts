import type { ConnectionType } from '@lookout/contracts';
import type { ConnectionUnderTest, TesterContext } from '../src/modules/connections/testers/tester.js';

/** A resolved connection as the connections service hands it to a tester, with `fields` over defaults. */
export function connectionUnderTest(
  type: ConnectionType,
  fields: Partial<Omit<ConnectionUnderTest, 'type'>> = {},
): ConnectionUnderTest {
  return { type, name: `test-${type}`, namespace: 'default', insecureTls: false, properties: {}, ...fields };
}

/** A tester context whose signal fires after `timeoutMs` (5 s unless told), as the service's does. */
export function testerContext(timeoutMs = 5000): TesterContext {
  return { signal: AbortSignal.timeout(timeoutMs), timeoutMs };
}

/** A tester context whose signal the test fires itself. */
export function abortableContext(timeoutMs = 30_000): TesterContext & { abort: () => void } {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    timeoutMs,
    abort: () => controller.abort(new Error('The connection test timed out')),
  };
}
