import { IN_CLUSTER, kubernetesAccess, type InClusterSource } from '../../../kubernetes/kubeconfig-access.js';
import type { ConnectionTester } from './tester.js';
import { jsonOf, statusMessage } from './http-get.js';
import { httpRequest } from './http-request.js';

// The kubeconfig parsing lives in src/kubernetes/ (the secrets module reads clusters too).
export { kubeconfigAccess, inClusterAccess, kubernetesAccess } from '../../../kubernetes/kubeconfig-access.js';
export type { KubernetesAccess, InClusterSource } from '../../../kubernetes/kubeconfig-access.js';

/**
 * Kubernetes: `GET /version` of the API server with the kubeconfig's credentials (or the pod's
 * service account when the connection has no kubeconfig). Resolves on the server's version
 * document; otherwise the status and the Status message the API server sent.
 */
export function createKubernetesTester(inCluster: InClusterSource = IN_CLUSTER): ConnectionTester {
  return async (connection, { signal }) => {
    const access = await kubernetesAccess(connection, inCluster);
    const url = new URL('version', access.server.href.endsWith('/') ? access.server : `${access.server.href}/`);
    const answer = await httpRequest(url, {
      headers: { accept: 'application/json', ...(access.authorization ? { authorization: access.authorization } : {}) },
      tls: access.tls,
      signal,
    });
    const body = jsonOf(answer) as { gitVersion?: unknown; kind?: unknown; message?: unknown } | undefined;
    if (answer.status === 200 && typeof body?.gitVersion === 'string') return;
    if (answer.status === 200) throw new Error(`${url.href} answered, but not with a Kubernetes version document`);
    // The API server's errors are Status objects whose message says what was wrong.
    throw new Error(
      statusMessage(answer, body?.kind === 'Status' && typeof body.message === 'string' ? body.message : undefined),
    );
  };
}

export const testKubernetesConnection = createKubernetesTester();
