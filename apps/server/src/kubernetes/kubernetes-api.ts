import https from 'node:https';
import http from 'node:http';
import { SERVER_VERSION } from '../version.js';
import type { KubernetesAccess } from './kubeconfig-access.js';

/** Enough for a Secret or ConfigMap (Kubernetes caps their data at 1 MiB) and its metadata. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** One answer of an API server: status, and the JSON body when there was one. */
export type KubernetesAnswer = { status: number; body: unknown };

/**
 * `GET <server><apiPath>` with the access's credentials and TLS (no redirects, fresh socket).
 * Resolves with any answer; rejects when none came (refused, TLS, timeout).
 */
export function kubernetesGet(access: KubernetesAccess, apiPath: string, timeoutMs: number): Promise<KubernetesAnswer> {
  const base = access.server.href.endsWith('/') ? access.server.href : `${access.server.href}/`;
  const url = new URL(apiPath.replace(/^\//, ''), base);
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `lookout/${SERVER_VERSION}` };
  if (access.authorization) headers.authorization = access.authorization;
  const { tls } = access;
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'GET',
        headers,
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
        ...(secure
          ? {
              rejectUnauthorized: !tls.insecure,
              ...(tls.ca ? { ca: tls.ca } : {}),
              ...(tls.cert ? { cert: tls.cert } : {}),
              ...(tls.key ? { key: tls.key } : {}),
            }
          : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) response.destroy(new Error(`the answer exceeded ${MAX_BODY_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The message of a Kubernetes Status body, if the answer is one. */
export function statusMessageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { kind, message } = body as { kind?: unknown; message?: unknown };
  return kind === 'Status' && typeof message === 'string' ? message : undefined;
}
