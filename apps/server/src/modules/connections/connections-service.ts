import { CONNECTION_MESSAGES, DEFAULT_CONNECTION_NAMESPACE, parseConnectionReference } from '@lookout/contracts';
import type { Logger } from 'pino';
import type { Sealer } from '../../crypto/sealed-values.js';
import { AppError } from '../../http/app-error.js';
import { sealContext, SEALED_VALUE_PATTERN, type StoredCredentials } from './connection-credentials-fns.js';
import {
  ConnectionResolveError,
  hydrateConnection,
  scrubCredentials,
  type ReferenceResolver,
  type ResolvedConnection,
} from './connection-hydrate-fns.js';
import type { ConnectionsRepository } from './connections-repository.js';
import { testerFor } from './testers/registry.js';

export type { ResolvedConnection } from './connection-hydrate-fns.js';
export { ConnectionResolveError } from './connection-hydrate-fns.js';

/** How long `POST /api/connection/test/{id}` waits for a service before it gives up. */
export const CONNECTION_TEST_TIMEOUT_MS = 15_000;

export type ConnectionTestOutcome = { ok: true } | { ok: false; error: string };

export type ConnectionsServiceDeps = {
  repository: ConnectionsRepository;
  sealer: Sealer;
  /** `secret://` and `configmap://` references in credential fields (the secrets service). */
  resolveReference?: ReferenceResolver;
  logger: Logger;
  testTimeoutMs?: number;
};

export type ConnectionsService = ReturnType<typeof createConnectionsService>;

export function createConnectionsService(deps: ConnectionsServiceDeps) {
  const log = deps.logger.child({ module: 'connections' });
  const hydrate = (row: Parameters<typeof hydrateConnection>[0]) =>
    hydrateConnection(row, { sealing: deps.sealer, resolveReference: deps.resolveReference });

  return {
    /**
     * The connection a reference names, ready for use (sealed values opened, references
     * resolved): `connection://<namespace>/<name>`, or `connection://<name>` and a bare name in
     * `defaultNamespace` (a check's canary's). Rejects with a {@link ConnectionResolveError}
     * saying what is missing.
     */
    async resolve(reference: string, defaultNamespace = DEFAULT_CONNECTION_NAMESPACE): Promise<ResolvedConnection> {
      const target = parseConnectionReference(reference, defaultNamespace);
      if (!target) {
        throw new ConnectionResolveError(
          `'${reference}' is no connection reference; write connection://<namespace>/<name>.`,
        );
      }
      const row = await deps.repository.findLive(target.namespace, target.name);
      if (!row) {
        throw new ConnectionResolveError(
          `connection://${target.namespace}/${target.name} does not exist (or was deleted); add it under Settings > Connections.`,
        );
      }
      return hydrate(row);
    },

    /**
     * Connects to the service a connection names, the way Lookout would use it: ok, or the
     * service's own error (credentials scrubbed). 404 for a connection that does not exist.
     */
    async test(id: string): Promise<ConnectionTestOutcome> {
      const row = await deps.repository.findLiveById(id);
      if (!row) throw AppError.notFound(`Connection '${id}' was not found; it may have been deleted.`);
      const tester = testerFor(row.type);
      if (!tester) return { ok: false, error: CONNECTION_MESSAGES.testUnsupported };
      let connection: ResolvedConnection;
      try {
        connection = await hydrate(row);
      } catch (error) {
        if (error instanceof ConnectionResolveError) return { ok: false, error: error.message };
        throw error;
      }
      const timeoutMs = deps.testTimeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
      const controller = new AbortController();
      const timer = setTimeout(
        () =>
          controller.abort(
            new Error(`No answer within ${timeoutMs / 1000} s; is the address right and the service up?`),
          ),
        timeoutMs,
      );
      try {
        await Promise.race([
          tester(connection, { signal: controller.signal, timeoutMs }),
          // A tester that ignores its signal still answers in time.
          new Promise<never>((_resolve, reject) =>
            controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
              once: true,
            }),
          ),
        ]);
        log.info({ connectionId: id, type: row.type }, 'connection test passed');
        return { ok: true };
      } catch (error) {
        // The message may be anything the service said; it is answered scrubbed and not logged.
        log.info({ connectionId: id, type: row.type }, 'connection test failed');
        const text = error instanceof Error && error.message ? error.message : String(error);
        return { ok: false, error: scrubCredentials(text, connection) };
      } finally {
        clearTimeout(timer);
        controller.abort();
      }
    },

    /**
     * Re-seals every sealed value of every row that an older key sealed (a rotation: the old
     * key in LOOKOUT_PREVIOUS_SECRET_KEYS). Values no key of the ring opens are left and counted.
     */
    async resealAll(): Promise<{ resealed: number; failed: number }> {
      let resealed = 0;
      let failed = 0;
      for (const row of await deps.repository.listSealed()) {
        const reseal = (text: string | null, context: string): string | null =>
          text === null
            ? null
            : text.replace(SEALED_VALUE_PATTERN, (sealed) =>
                deps.sealer.keyIdOf(sealed) === deps.sealer.keyId
                  ? sealed
                  : deps.sealer.seal(deps.sealer.open(sealed, context), context),
              );
        try {
          const after: StoredCredentials = {
            url: reseal(row.url, sealContext('url')),
            password: reseal(row.password, sealContext('password')),
            certificate: reseal(row.certificate, sealContext('certificate')),
            properties: row.properties
              ? Object.fromEntries(
                  Object.entries(row.properties).map(([key, value]) => [
                    key,
                    reseal(value, sealContext('properties')) ?? '',
                  ]),
                )
              : null,
          };
          const changed =
            after.url !== row.url ||
            after.password !== row.password ||
            after.certificate !== row.certificate ||
            JSON.stringify(after.properties) !== JSON.stringify(row.properties);
          if (changed && (await deps.repository.replaceCredentials(row.id, row, after))) resealed += 1;
        } catch (error) {
          failed += 1;
          log.warn(
            { connectionId: row.id, reason: error instanceof Error ? error.message : String(error) },
            'a connection credential could not be re-sealed under the current key',
          );
        }
      }
      if (resealed > 0 || failed > 0) log.info({ resealed, failed }, 'connection credentials re-sealed');
      return { resealed, failed };
    },
  };
}
