import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export type KubernetesApiServer = {
  url: string;
  /** Each request's path and how it authenticated ('token', 'client-certificate' or 'anonymous'). */
  requests: { path: string; as: string }[];
  close: () => Promise<void>;
};

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

/**
 * A Kubernetes API server as far as `GET /version` goes, over TLS: a bearer token or a client
 * certificate issued by `clientCa` authenticates; a wrong token is a 401 Status (as the API
 * server answers an invalid token even where anonymous requests are allowed); anonymous
 * requests get a 403 Status unless `allowAnonymous`; the version document otherwise.
 */
export function startKubernetesApiServer(options: {
  tls: { cert: string; key: string };
  clientCa: string;
  token: string;
  allowAnonymous?: boolean;
  /**
   * Secrets and ConfigMaps served at `/api/v1/namespaces/{ns}/secrets|configmaps/{name}`, keyed
   * `secrets/<ns>/<name>` or `configmaps/<ns>/<name>` (a secret's data base64, as the API has it).
   */
  objects?: Record<string, Record<string, string>>;
  /** Namespaces whose objects the token may not read (a 403 Status, as RBAC answers). */
  forbiddenNamespaces?: string[];
}): Promise<KubernetesApiServer> {
  const requests: KubernetesApiServer['requests'] = [];
  const server = https.createServer(
    { ...options.tls, ca: options.clientCa, requestCert: true, rejectUnauthorized: false },
    (request, response) => {
      const json = (code: number, body: string) =>
        response.writeHead(code, { 'content-type': 'application/json' }).end(body);
      const authorization = request.headers.authorization;
      const certified = (request.socket as TLSSocket).authorized;
      let as = 'anonymous';
      if (authorization !== undefined) {
        if (authorization !== `Bearer ${options.token}`) {
          requests.push({ path: request.url ?? '', as: 'rejected' });
          return json(401, status(401, 'Unauthorized', 'Unauthorized'));
        }
        as = 'token';
      } else if (certified) as = 'client-certificate';
      requests.push({ path: request.url ?? '', as });
      if (as === 'anonymous' && !options.allowAnonymous) {
        return json(403, status(403, 'Forbidden', 'forbidden: User "system:anonymous" cannot get path "/version"'));
      }
      const object = /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps)\/([^/?]+)$/.exec(request.url ?? '');
      if (object) {
        const [, namespace, resource, name] = object;
        const singular = resource === 'secrets' ? 'secret' : 'configmap';
        if (options.forbiddenNamespaces?.includes(namespace!)) {
          return json(
            403,
            status(
              403,
              'Forbidden',
              `${resource} "${name}" is forbidden: User "system:serviceaccount:lookout:lookout" cannot get resource "${resource}" in API group "" in the namespace "${namespace}"`,
            ),
          );
        }
        const data = options.objects?.[`${resource}/${namespace}/${name}`];
        if (!data) return json(404, status(404, 'NotFound', `${resource} "${name}" not found`));
        return json(
          200,
          JSON.stringify({
            kind: resource === 'secrets' ? 'Secret' : 'ConfigMap',
            apiVersion: 'v1',
            metadata: { name, namespace, uid: `${singular}-${name}` },
            ...(resource === 'secrets' ? { type: 'Opaque' } : {}),
            data,
          }),
        );
      }
      if (request.url !== '/version')
        return json(404, status(404, 'NotFound', 'the server could not find the requested resource'));
      json(
        200,
        JSON.stringify({
          major: '1',
          minor: '31',
          gitVersion: 'v1.31.2',
          platform: 'linux/amd64',
          goVersion: 'go1.22.8',
        }),
      );
    },
  );
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}
