import { z } from 'zod';
import { CONNECTION_TEST_OK } from './connections.js';
import { SECRET_MASK } from './secret-mask.js';

/**
 * How the server shows and keeps connection credentials (docs/connections.md).
 *
 * Credentials (password, certificate, a url's password and `password=…` pairs, bearer tokens,
 * properties under credential-like keys) are stored sealed and never read back, admins
 * included: wherever one is set, a read shows {@link CONNECTION_SECRET_MARKER}. A write that
 * sends the marker back in the same place (the edit form saving what it loaded) keeps the
 * stored value; any other value replaces it. References (`secret://<name>/<key>`,
 * `configmap://<name>/<key>`) are stored and shown as written.
 */

/** What a set credential reads as, and what a write sends to keep it: the same `***` as every mask. */
export const CONNECTION_SECRET_MARKER = SECRET_MASK;

/** `POST /api/connection/test/{id}`: the connection works. */
export const connectionTestOkSchema = z.object({ message: z.literal(CONNECTION_TEST_OK) });

/**
 * `POST /api/connection/test/{id}`: the connection does not work (400), with the server's own
 * answer (wrong password, unknown host, ...), or Lookout cannot test its type
 * (CONNECTION_MESSAGES.testUnsupported).
 */
export const connectionTestFailedSchema = z.object({ error: z.string() });

/** Path parameters of `POST /api/connection/test/{id}`. */
export const connectionTestParamsSchema = z.object({
  id: z.uuid({ error: 'must be the id of a connection (a UUID)' }),
});

/** `connection://<namespace>/<name>`, `connection://<name>` (namespace default) or a bare name. */
const CONNECTION_REFERENCE = /^connection:\/\/(?:([^/\s]+)\/)?([^/\s]+)$/;

/** A connection reference picked apart; undefined for text that is none. */
export function parseConnectionReference(
  value: string,
  defaultNamespace = 'default',
): { namespace: string; name: string } | undefined {
  const text = value.trim();
  const match = CONNECTION_REFERENCE.exec(text);
  if (match) return { namespace: match[1] ?? defaultNamespace, name: match[2] as string };
  // A bare name: no scheme, no slash, no blank.
  if (/^[^/\s:]+$/.test(text)) return { namespace: defaultNamespace, name: text };
  return undefined;
}

/** True for a `connection://…` reference (a bare name is not recognised here). */
export function isConnectionReference(value: string | undefined): value is string {
  return value !== undefined && CONNECTION_REFERENCE.test(value.trim());
}
