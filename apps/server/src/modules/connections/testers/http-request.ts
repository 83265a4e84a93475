import http from 'node:http';
import https from 'node:https';
import { SERVER_VERSION } from '../../../version.js';
import type { HttpAnswer } from './http-get.js';
import { abortError } from './abortable.js';

const MAX_BODY_BYTES = 64 * 1024;

/** TLS settings of one request: trust (CA, or none with insecure), and a client certificate. */
export type RequestTls = { insecure: boolean; ca?: string; cert?: string; key?: string };

export type HttpRequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  tls?: RequestTls;
  signal: AbortSignal;
};

/**
 * One HTTP(S) request of a service's API (no redirects followed: an API that redirects is
 * answered as it is). Resolves with any answer, the body cut at 64 KiB; rejects only when
 * none came, with the signal's reason after an abort (which also destroys the socket).
 */
export function httpRequest(url: URL, options: HttpRequestOptions): Promise<HttpAnswer> {
  if (options.signal.aborted) return Promise.reject(abortError(options.signal));
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  const tls = options.tls;
  const headers: Record<string, string> = { 'user-agent': `lookout/${SERVER_VERSION}`, ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        signal: options.signal,
        // A fresh connection per test: no pooled socket outlives it.
        agent: false,
        ...(secure && tls
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
        let done = false;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_BODY_BYTES) response.destroy();
        });
        const finish = () => {
          if (done) return;
          done = true;
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'),
          });
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    request.on('error', (error) => reject(options.signal.aborted ? abortError(options.signal) : error));
    request.end(options.body);
  });
}
