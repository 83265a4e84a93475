import {
  errorEnvelopeSchema,
  KUBECONFIG_CONTEXT,
  KUBECONFIG_FILE_NAME,
  KUBERNETES_API_PREFIX,
  kubeconfigTokenListSchema,
  kubeconfigTokenParamsSchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stringify as toYaml } from 'yaml';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { requestOrigin } from '../../http/public-url.js';
import type { KubeTokensRepository } from './kube-tokens-repository.js';

export type KubeconfigRoutesOptions = {
  tokens: KubeTokensRepository;
  /** The signed-in person of a request (its session). */
  personOf: (request: FastifyRequest) => Promise<string | null>;
  /** LOOKOUT_PUBLIC_URL, which wins over the request's own address (ADR 0007). */
  publicUrl?: string | undefined;
};

const tags = ['kubeconfig'];
const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** The kubeconfig file: one cluster (Lookout's API at /api/kubernetes), one user (the token), one context. */
export function kubeconfigYaml(server: string, token: string): string {
  return toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: KUBECONFIG_CONTEXT, cluster: { server } }],
    users: [{ name: KUBECONFIG_CONTEXT, user: { token } }],
    contexts: [
      {
        name: KUBECONFIG_CONTEXT,
        context: { cluster: KUBECONFIG_CONTEXT, user: KUBECONFIG_CONTEXT, namespace: 'default' },
      },
    ],
    'current-context': KUBECONFIG_CONTEXT,
    preferences: {},
  });
}

/** GET /api/kubeconfig and the signed-in person's kubeconfig tokens (list, revoke). */
export const kubeconfigRoutes: FastifyPluginAsyncZod<KubeconfigRoutesOptions> = async (app, options) => {
  const person = async (request: FastifyRequest) => {
    const id = await options.personOf(request);
    if (!id) throw new AppError(401, 'unauthorized', 'Sign in to use Lookout.');
    return id;
  };

  app.get(
    '/kubeconfig',
    {
      // access: any signed-in person downloads a kubeconfig for themselves; what its token may
      // do is decided by that person's roles at each kubectl call.
      config: { rbac: 'authenticated' },
      schema: {
        tags,
        summary: 'Download a kubeconfig for kubectl',
        description:
          `A kubeconfig (YAML, saved as ${KUBECONFIG_FILE_NAME}) whose server is Lookout's public URL plus ` +
          `${KUBERNETES_API_PREFIX} and whose user is a new token of the signed-in person: kubectl then lists, shows, ` +
          'applies and deletes canaries, topologies, scrape configs, playbooks and notifications with that ' +
          "person's roles. Each download makes a new token; revoke one with DELETE /api/kubeconfig/tokens/{id}.",
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const personId = await person(request);
      const { token } = await options.tokens.create(personId, `kubeconfig ${new Date().toISOString()}`);
      const server = `${requestOrigin(request, options.publicUrl)}${KUBERNETES_API_PREFIX}`;
      return reply
        .header('content-type', 'application/yaml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${KUBECONFIG_FILE_NAME}"`)
        .header('cache-control', 'no-store')
        .send(kubeconfigYaml(server, token));
    },
  );

  app.get(
    '/kubeconfig/tokens',
    {
      // access: each person sees only their own tokens.
      config: { rbac: 'authenticated' },
      schema: {
        tags,
        summary: "The signed-in person's kubeconfig tokens",
        description: 'Id, name, creation, expiry and last use of each token (never the token itself).',
        response: { 200: kubeconfigTokenListSchema, ...errors },
      },
    },
    async (request) => options.tokens.list(await person(request)),
  );

  app.delete(
    '/kubeconfig/tokens/:id',
    {
      // access: each person revokes only their own tokens.
      config: { rbac: 'authenticated' },
      schema: {
        tags,
        summary: 'Revoke a kubeconfig token',
        description: 'kubectl with that kubeconfig is refused (401) from then on. 404 when you have no such token.',
        params: kubeconfigTokenParamsSchema,
        response: { 204: z.null(), 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await options.tokens.revoke(await person(request), request.params.id))) {
        throw AppError.notFound(`You have no kubeconfig token ${request.params.id}.`);
      }
      return reply.status(204).send(null);
    },
  );
};
