import { EXTERNAL_KRATOS_ERRORS } from '@lookout/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../../http/app-error.js';
import { externalIdentityOf, kratosErrorBody } from './external-kratos-fns.js';
import type { PeopleMirror } from './external-people-mirror.js';
import type { AdminAnswer, AdminListQuery, IdentityAdministration } from '../identity-admin-service.js';
import type { RequestContext } from '../identity-types.js';
import { KratosError } from '../kratos-errors-fns.js';

/**
 * User administration (invite, edit, delete on the Users page) against the admin API of an
 * external Ory Kratos at KRATOS_ADMIN_URL, with the answers of the built-in admin service:
 * Kratos's 4xx refusals become `KratosError`s, which user administration turns into its own
 * messages; Kratos being away or failing becomes a 502/504 naming the setting, never a 500.
 * Every identity it creates or changes gets its person at once, so roles can be set on it.
 */

export type KratosAdminClientDeps = {
  /** KRATOS_ADMIN_URL, without a trailing slash. */
  adminUrl: string;
  people: Pick<PeopleMirror, 'sync'>;
  logger: Pick<Logger, 'warn'>;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

type Body = Record<string, unknown>;

/**
 * The admin API of an external Kratos. Listing needs no request (the identity sync lists
 * from a timer), so `list` takes no context.
 */
export type KratosAdminClient = Omit<IdentityAdministration, 'list'> & {
  list: (query: AdminListQuery, ctx?: RequestContext) => Promise<AdminAnswer>;
};

const unreachable = (status: 502 | 504) =>
  new AppError(status, EXTERNAL_KRATOS_ERRORS.adminUnreachable.code, EXTERNAL_KRATOS_ERRORS.adminUnreachable.message);

export function createKratosAdminClient({
  adminUrl,
  people,
  logger,
  fetch: fetchImpl = fetch,
  timeoutMs = 10_000,
}: KratosAdminClientDeps): KratosAdminClient {
  async function call(method: string, path: string, body?: unknown): Promise<AdminAnswer> {
    let response: Response;
    try {
      response = await fetchImpl(`${adminUrl}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      logger.warn(
        { method, path: path.split('?', 1)[0], reason: error instanceof Error ? error.message : String(error) },
        'Could not reach Kratos at KRATOS_ADMIN_URL',
      );
      throw unreachable(timedOut ? 504 : 502);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.status >= 500) {
      logger.warn({ method, path: path.split('?', 1)[0], status: response.status }, 'Kratos admin API failed');
      throw new AppError(
        502,
        EXTERNAL_KRATOS_ERRORS.upstreamFailed.code,
        EXTERNAL_KRATOS_ERRORS.upstreamFailed.message,
      );
    }
    if (response.status >= 400) {
      throw new KratosError(response.status, kratosErrorBody(response.status, parsed, text));
    }
    const link = response.headers.get('link');
    return { status: response.status, body: parsed, ...(link ? { headers: { link } } : {}) };
  }

  const identityPath = (id: string | undefined) => `/admin/identities/${encodeURIComponent(id ?? '')}`;

  /** Gives a created or changed identity its person (forced: the admin just changed it). */
  async function mirror(answer: AdminAnswer): Promise<AdminAnswer> {
    const identity = externalIdentityOf(answer.body);
    if (identity) await people.sync(identity, { force: true });
    return answer;
  }

  return {
    get: (id) => call('GET', identityPath(id)),

    list: (query: AdminListQuery) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined) params.set(name, String(value));
      }
      const search = params.toString();
      return call('GET', `/admin/identities${search ? `?${search}` : ''}`);
    },

    create: async (body: Body) => mirror(await call('POST', '/admin/identities', body)),

    /**
     * Kratos's PUT replaces the identity: schema, state and metadata the caller leaves out are
     * taken from the current identity rather than cleared. Deactivating also ends the
     * identity's sessions, as the built-in service does.
     */
    update: async (id, body: Body) => {
      const current = (await call('GET', identityPath(id))).body as Body | undefined;
      const merged: Body = {
        schema_id: current?.schema_id,
        state: current?.state,
        metadata_public: current?.metadata_public ?? null,
        metadata_admin: current?.metadata_admin ?? null,
        ...body,
      };
      const answer = await call('PUT', identityPath(id), merged);
      if (merged.state === 'inactive') {
        // Kratos answers 404 when the identity has no session to end: nothing to do then.
        await call('DELETE', `${identityPath(id)}/sessions`).catch((error: unknown) => {
          if (!(error instanceof KratosError && error.statusCode === 404)) throw error;
        });
      }
      return mirror(answer);
    },

    remove: (id) => call('DELETE', identityPath(id)),

    createRecoveryCode: (body: Body, _ctx, kind) => call('POST', `/admin/recovery/${kind}`, body),
  };
}

/**
 * User administration with KRATOS_PUBLIC_URL but no KRATOS_ADMIN_URL: every call is refused
 * with a 503 that names the missing setting (Lookout cannot change identities it cannot reach).
 */
export function adminUrlRequired(): IdentityAdministration {
  const refuse = async (): Promise<never> => {
    throw new AppError(
      503,
      EXTERNAL_KRATOS_ERRORS.adminUrlRequired.code,
      EXTERNAL_KRATOS_ERRORS.adminUrlRequired.message,
    );
  };
  return { get: refuse, list: refuse, create: refuse, update: refuse, remove: refuse, createRecoveryCode: refuse };
}
