import http from 'node:http';
import https from 'node:https';

/** A service's answer: status and the body (cut at 64 KiB). */
export type HttpAnswer = { status: number; statusText: string; body: string };

const MAX_BODY_BYTES = 64 * 1024;

/**
 * One HTTP(S) request to a service (no redirects followed). Resolves with any answer; rejects
 * only when none came (the signal's reason after an abort, which also closes the socket).
 */
export function httpRequest(
  url: URL,
  options: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    insecureTls: boolean;
    signal: AbortSignal;
  },
): Promise<HttpAnswer> {
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': 'lookout-notifications', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: options.method,
        headers,
        signal: options.signal,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !options.insecureTls } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY_BYTES),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
