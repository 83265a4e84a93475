import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { HttpCheck } from '@lookout/contracts';
import { SERVER_VERSION } from '../../../version.js';
import { celDuration } from './cel-fns.js';
import {
  certificateExpiryFailure,
  daysUntil,
  displayUrl,
  flattenHeaders,
  isJsonContentType,
  methodAfterRedirect,
  shouldFollowRedirects,
  statusFailure,
} from './http-fns.js';
import { CheckFailure, resolveValue, runProbe } from './runner-harness.js';
import {
  describeNetworkError,
  exceedsThreshold,
  formatMillis,
  isExpectedStatus,
  thresholdMessage,
  truncate,
} from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Bodies beyond this are cut: a health endpoint that returns more is itself a finding. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 10;
/** How much of the body the stored detail keeps; the full text is only for expressions. */
const CONTENT_PREVIEW = 2000;

type PeerCertificate = { subject: string; issuer: string; validTo: Date };

type HttpExchange = {
  url: URL;
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: string;
  truncated: boolean;
  certificate: PeerCertificate | undefined;
};

type RequestOptions = {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  ca: string | undefined;
  insecure: boolean;
  signal: AbortSignal;
};

function readCertificate(response: IncomingMessage): PeerCertificate | undefined {
  const socket = response.socket as TLSSocket | null;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.valid_to) return undefined;
  const name = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : (value ?? ''));
  return { subject: name(cert.subject?.CN), issuer: name(cert.issuer?.CN), validTo: new Date(cert.valid_to) };
}

/** Reads the body, decompressing as the server says, up to {@link MAX_BODY_BYTES}. */
function readBody(response: IncomingMessage): Promise<{ body: string; truncated: boolean }> {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const stream = decoder ? response.pipe(decoder) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    stream.on('data', (chunk: Buffer) => {
      if (truncated) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size > MAX_BODY_BYTES) {
        truncated = true;
        response.destroy();
        resolve({ body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), truncated });
      }
    });
    stream.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8'), truncated }));
    stream.on('error', (error) => (truncated ? undefined : reject(error)));
    response.on('error', (error) => (truncated ? undefined : reject(error)));
  });
}

function sendOnce(
  url: URL,
  options: RequestOptions,
): Promise<{ response: IncomingMessage; certificate?: PeerCertificate }> {
  const isHttps = url.protocol === 'https:';
  const requestOptions: https.RequestOptions = {
    method: options.method,
    headers: options.headers,
    signal: options.signal,
    // A fresh connection per run: timings include the connect and TLS handshake, and the peer
    // certificate is read from this exchange rather than from a pooled socket.
    agent: false,
  };
  if (isHttps) {
    requestOptions.rejectUnauthorized = !options.insecure;
    if (options.ca) requestOptions.ca = options.ca;
  }
  return new Promise((resolve, reject) => {
    const request = (isHttps ? https : http).request(url, requestOptions, (response) => {
      resolve({ response, certificate: isHttps ? readCertificate(response) : undefined });
    });
    request.on('error', reject);
    if (options.body !== undefined && options.method !== 'GET' && options.method !== 'HEAD') {
      request.end(options.body);
    } else {
      request.end();
    }
  });
}

async function exchange(start: URL, options: RequestOptions, followRedirects: boolean): Promise<HttpExchange> {
  let url = start;
  let current = options;
  for (let hop = 0; ; hop += 1) {
    const { response, certificate } = await sendOnce(url, current);
    const location = response.headers.location;
    if (followRedirects && location && response.statusCode && response.statusCode >= 300 && response.statusCode < 400) {
      // The redirect's own body is thrown away; an error while draining it must not go unheard.
      response.on('error', () => undefined);
      response.resume();
      if (hop >= MAX_REDIRECTS) {
        throw new CheckFailure(`stopped after ${MAX_REDIRECTS} redirects (last to ${location})`);
      }
      const next = new URL(location, url);
      const method = methodAfterRedirect(response.statusCode, current.method);
      const headers = { ...current.headers };
      // Credentials stay with the host they were meant for.
      if (next.host !== url.host) delete headers.authorization;
      current = { ...current, method, headers, body: method === current.method ? current.body : undefined };
      url = next;
      continue;
    }
    const { body, truncated } = await readBody(response);
    return {
      url,
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      headers: response.headers,
      body,
      truncated,
      certificate,
    };
  }
}

async function probe(check: HttpCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  if (check.ntlm || check.ntlmv2) {
    throw new CheckFailure('NTLM authentication is not supported; use basic authentication');
  }
  const target = new URL(check.url ?? check.endpoint ?? '');
  const method = check.method ?? 'GET';
  const headers: Record<string, string> = { 'user-agent': `lookout/${SERVER_VERSION}` };
  for (const header of check.headers ?? []) {
    headers[header.name.toLowerCase()] = await resolveValue(header, context, `header ${header.name}`);
  }
  let username: string | undefined;
  let password: string | undefined;
  if (check.authentication) {
    username = await resolveValue(check.authentication.username, context, 'the username');
    password = await resolveValue(check.authentication.password, context, 'the password');
  } else if (target.username || target.password) {
    username = decodeURIComponent(target.username);
    password = decodeURIComponent(target.password);
  }
  target.username = '';
  target.password = '';
  if (username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`;
  }
  // Forms send JSON bodies without a content type; most JSON APIs ignore a body without one.
  if (check.body !== undefined && headers['content-type'] === undefined && /^\s*[[{]/.test(check.body)) {
    headers['content-type'] = 'application/json';
  }
  const ca = check.tlsConfig?.ca ? await resolveValue(check.tlsConfig.ca, context, 'the CA bundle') : undefined;

  const started = performance.now();
  let result: HttpExchange;
  try {
    result = await exchange(
      target,
      {
        method,
        headers,
        body: check.body,
        ca,
        insecure: check.tlsConfig?.insecureSkipVerify ?? false,
        signal: context.signal,
      },
      shouldFollowRedirects(check.responseCodes),
    );
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    const reason = describeNetworkError(error);
    throw new CheckFailure(`could not reach ${displayUrl(target)}: ${reason}`, {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const elapsedMs = performance.now() - started;
  const now = new Date();

  const failures: string[] = [];
  const location = typeof result.headers.location === 'string' ? result.headers.location : undefined;
  if (!isExpectedStatus(result.status, check.responseCodes)) {
    failures.push(statusFailure(result.status, check.responseCodes, location));
  }
  if (check.responseContent && !result.body.includes(check.responseContent)) {
    failures.push(`response does not contain "${truncate(check.responseContent, 200)}"`);
  }
  if (result.certificate) {
    const expiry = certificateExpiryFailure(result.certificate.validTo, now, check.maxSSLExpiry);
    if (expiry) failures.push(expiry);
  }
  if (exceedsThreshold(elapsedMs, check.thresholdMillis)) {
    failures.push(thresholdMessage('response', elapsedMs, check.thresholdMillis));
  }

  let json: unknown = {};
  if (isJsonContentType(String(result.headers['content-type'] ?? ''))) {
    try {
      json = JSON.parse(result.body) as unknown;
    } catch (error) {
      // canary-checker fails such a response unless a test expression decides instead.
      if (!check.test) failures.push(`response says it is JSON but is not: ${(error as Error).message}`);
    }
  }
  if (result.truncated) {
    failures.push(`response body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB and was cut`);
  }

  const headersFlat = flattenHeaders(result.headers);
  const sslAgeMs = result.certificate ? result.certificate.validTo.getTime() - now.getTime() : undefined;
  const detail = {
    url: displayUrl(result.url),
    code: result.status,
    status: result.statusText,
    headers: Object.fromEntries(Object.entries(result.headers).filter(([, value]) => value !== undefined)),
    elapsedMs: Math.round(elapsedMs),
    contentLength: Buffer.byteLength(result.body),
    content: truncate(result.body, CONTENT_PREVIEW),
    ...(result.certificate
      ? {
          certificate: {
            subject: result.certificate.subject,
            issuer: result.certificate.issuer,
            validTo: result.certificate.validTo.toISOString(),
            daysLeft: daysUntil(result.certificate.validTo, now),
          },
        }
      : {}),
  };
  const certificateNote = result.certificate
    ? `, certificate valid for ${daysUntil(result.certificate.validTo, now)} more days`
    : '';
  const passMessage = `${result.status} ${result.statusText} in ${formatMillis(elapsedMs)}${certificateNote}`.replace(
    /\s+/g,
    ' ',
  );
  return {
    pass: failures.length === 0,
    message: failures.length === 0 ? passMessage : failures.join('; '),
    detail,
    durationMs: Math.round(elapsedMs),
    celVariables: {
      code: result.status,
      headers: headersFlat,
      content: result.body,
      json,
      elapsed: celDuration(elapsedMs),
      sslAge: sslAgeMs === undefined ? null : celDuration(sslAgeMs),
      url: displayUrl(result.url),
    },
  };
}

/** http and https checks: status, content, latency, certificate expiry and CEL expressions. */
export const httpRunner: CheckRunner<'http'> = {
  type: 'http',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
