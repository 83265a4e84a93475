import { pipeline, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  chooseEncoding,
  isCompressibleType,
  varyWithAcceptEncoding,
  weakenEtag,
  type ContentEncoding,
} from './compression-fns.js';

/** Bodies smaller than this are sent as they are: the headers would eat the saving. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

// Brotli at quality 4 compresses about as well as gzip -6, much faster than its default 11
// (kept for the web build's precompressed assets, which are compressed once).
const brotliOptions: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};
const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compresses a whole body off the event loop (zlib runs on libuv's thread pool). */
function compressBuffer(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotliCompress(body, brotliOptions) : gzip(body);
}

function compressStream(encoding: ContentEncoding): zlib.BrotliCompress | zlib.Gzip {
  return encoding === 'br' ? zlib.createBrotliCompress(brotliOptions) : zlib.createGzip();
}

const headerText = (reply: FastifyReply, name: string): string | undefined => {
  const value = reply.getHeader(name);
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
};

const isStream = (payload: unknown): payload is Readable =>
  typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';

/**
 * Compresses answers with brotli or gzip, as the client's Accept-Encoding allows: every
 * buffered body (JSON of the API, the console's index.html, OpenAPI) of a compressible type
 * from COMPRESSION_THRESHOLD_BYTES on, and files streamed with a known length (assets that
 * have no precompressed copy, the API docs' scripts).
 *
 * Left as they are, so that nothing that streams is held back in a compressor's buffer:
 * streams without a Content-Length (server-sent events, progressive output), and
 * `text/event-stream` whatever its form. Also left alone: bodies already encoded (the web
 * build's `.br`/`.gz` assets), byte ranges (206, `Content-Range: bytes`, which count
 * unencoded bytes), `Cache-Control: no-transform`, and answers without a body.
 *
 * Not @fastify/compress: it skips every answer that has a Content-Range, and PostgREST-style
 * reads of /api/db carry one on every page (`0-24/573`, an item range, not bytes).
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (payload === null || payload === undefined) return payload;
    const status = reply.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return payload;
    if (headerText(reply, 'content-encoding')) return payload;
    if (!isCompressibleType(headerText(reply, 'content-type'))) return payload;
    if (/^\s*bytes\b/i.test(headerText(reply, 'content-range') ?? '')) return payload;
    if (/\bno-transform\b/i.test(headerText(reply, 'cache-control') ?? '')) return payload;

    let size: number;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) size = Buffer.byteLength(payload);
    else if (isStream(payload)) size = Number(headerText(reply, 'content-length') ?? Number.NaN);
    else return payload;
    // NaN (a stream of unknown length) fails this test too, which is the point.
    if (!(size >= COMPRESSION_THRESHOLD_BYTES)) return payload;

    // Whether compressed or not, this answer depended on Accept-Encoding.
    reply.header('vary', varyWithAcceptEncoding(headerText(reply, 'vary')));
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;

    const etag = headerText(reply, 'etag');
    if (etag) reply.header('etag', weakenEtag(etag));
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      return compressBuffer(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding);
    }
    const compressed = compressStream(encoding);
    pipeline(payload as Readable, compressed, (error) => {
      if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        request.log.warn({ err: error }, 'Compressing a streamed answer failed');
      }
    });
    return compressed;
  });
}
