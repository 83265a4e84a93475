import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import { parseAllDocuments } from 'yaml';
import type { ScrapedDocument } from '../scrape-item-fns.js';
import { plainValue, type ScrapeConnectionResolver } from './scraper-connections.js';

/**
 * The `http` scraper: one request to a JSON (or YAML) endpoint, whose body is one document that
 * the entry's `items` expression splits. The URL and basic-auth credentials come from the entry
 * or from a connection (`connection: connection://<namespace>/<name>`).
 */

export type HttpEntry = {
  url?: string | undefined;
  connection?: string | undefined;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | undefined;
  headers?: Array<{ name: string; value?: unknown }> | undefined;
  body?: string | undefined;
  username?: unknown;
  password?: unknown;
  format?: 'json' | 'yaml' | 'properties' | undefined;
};

const REQUEST_TIMEOUT_MS = 30_000;

async function readLimited(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > SCRAPE_ENGINE_LIMITS.httpBytes) {
      await reader.cancel();
      throw new Error(`the response is larger than ${SCRAPE_ENGINE_LIMITS.httpBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function scrapeHttp(
  entry: HttpEntry,
  context: { namespace: string; resolveConnection?: ScrapeConnectionResolver | undefined },
): Promise<{ documents: ScrapedDocument[]; errors: string[] }> {
  let url = entry.url;
  let username = plainValue('username', entry.username);
  let password = plainValue('password', entry.password);
  if (entry.connection) {
    if (!context.resolveConnection)
      throw new Error(`connection '${entry.connection}': connections are not available here`);
    const connection = await context.resolveConnection(entry.connection, context.namespace);
    url ??= connection.url;
    username ??= connection.username;
    password ??= connection.password;
  }
  if (!url) throw new Error('url: the entry and its connection have no url');
  const headers = new Headers();
  for (const [index, header] of (entry.headers ?? []).entries()) {
    const value = plainValue(`headers[${index}]`, header.value);
    if (value !== undefined) headers.set(header.name, value);
  }
  if (username !== undefined || password !== undefined) {
    headers.set('authorization', `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`);
  }
  const response = await fetch(url, {
    method: entry.method ?? 'GET',
    headers,
    ...(entry.body !== undefined && entry.method !== 'GET' ? { body: entry.body } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    redirect: 'follow',
  });
  const text = await readLimited(response);
  const where = new URL(url).origin + new URL(url).pathname;
  if (!response.ok) throw new Error(`${where} answered ${response.status} ${response.statusText}`.trim());
  const yaml = entry.format === 'yaml' || /yaml/i.test(response.headers.get('content-type') ?? '');
  let documents: unknown[];
  try {
    documents = yaml
      ? parseAllDocuments(text).map((document) => document.toJS({ maxAliasCount: 100 }) as unknown)
      : [JSON.parse(text) as unknown];
  } catch (error) {
    throw new Error(`${where} did not answer ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`);
  }
  return { documents: documents.map((document) => ({ source: where, document })), errors: [] };
}
