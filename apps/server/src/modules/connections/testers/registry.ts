import type { ConnectionType } from '@lookout/contracts';
import type { ConnectionTester } from './tester.js';

/**
 * Which connection types `POST /api/connection/test/{id}` can really test, and how. A type
 * missing here is answered with CONNECTION_MESSAGES.testUnsupported. One tester per file in
 * this folder; add its import above and its entry below.
 */
export const CONNECTION_TESTERS: Partial<Record<ConnectionType, ConnectionTester>> = {};

/** The tester of a type, or undefined when Lookout cannot test that type. */
export function testerFor(type: ConnectionType): ConnectionTester | undefined {
  return Object.hasOwn(CONNECTION_TESTERS, type) ? CONNECTION_TESTERS[type] : undefined;
}
