import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** Compresses a whole body off the event loop (zlib runs on libuv's thread pool). */
function compressBuffer(
  body: Buffer,
  encoding: ContentEncoding,
  done: (error: Error | null, result: Buffer) => void,
): void {
  if (encoding === 'br') zlib.brotliCompress(body, brotliOptions, done);
  else zlib.gzip(body, done);
}

function compressStream(encoding: ContentEncoding): zlib.BrotliCompress | zlib.Gzip {
  return encoding === 'br' ? zlib.createBrotliCompress(brotliOptions) : zlib.createGzip();
}

const headerText = (reply: FastifyReply, name: string): string | undefined => {
  const value = reply.getHeader(name);
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
};

/** Most distinct Content-Types whose verdict is kept; answers use a handful. */
const TYPE_CACHE_SIZE = 64;
const compressibleTypes = new Map<string, boolean>();

/** {@link isCompressibleType}, remembered per Content-Type (it is asked on every answer). */
function isCompressible(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  let verdict = compressibleTypes.get(contentType);
  if (verdict === undefined) {
    verdict = isCompressibleType(contentType);
    if (compressibleTypes.size >= TYPE_CACHE_SIZE) compressibleTypes.clear();
    compressibleTypes.set(contentType, verdict);
  }
  return verdict;
}

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
 *
 * The hook is a callback hook, not an async one: most answers are decided without waiting for
 * anything (small, not compressible, or a client that takes no encoding), and those go on at
 * once instead of through a promise and a microtask per answer; only compressing a whole body
 * waits, for zlib on the thread pool.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const encoding = encodingFor(request, reply, payload);
    if (!encoding) {
      done(null, payload);
      return;
    }
    const etag = headerText(reply, 'etag');
    if (etag) reply.header('etag', weakenEtag(etag));
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      compressBuffer(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding, done);
      return;
    }
    const compressed = compressStream(encoding);
    pipeline(payload as Readable, compressed, (error) => {
      if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        request.log.warn({ err: error }, 'Compressing a streamed answer failed');
      }
    });
    done(null, compressed);
  });
}

/**
 * How to encode this answer, or undefined to send it as it is. Sets `Vary: Accept-Encoding`
 * on every answer whose form depended on it (compressible and large enough), compressed or not.
 */
function encodingFor(request: FastifyRequest, reply: FastifyReply, payload: unknown): ContentEncoding | undefined {
  if (payload === null || payload === undefined) return undefined;
  const status = reply.statusCode;
  if (status < 200 || status === 204 || status === 206 || status === 304) return undefined;
  if (!isLargeEnough(reply, payload)) return undefined;
  if (headerText(reply, 'content-encoding')) return undefined;
  if (!isCompressible(headerText(reply, 'content-type'))) return undefined;
  if (/^\s*bytes\b/i.test(headerText(reply, 'content-range') ?? '')) return undefined;
  if (/\bno-transform\b/i.test(headerText(reply, 'cache-control') ?? '')) return undefined;
  // Whether compressed or not, this answer depended on Accept-Encoding.
  reply.header('vary', varyWithAcceptEncoding(headerText(reply, 'vary')));
  return chooseEncoding(request.headers['accept-encoding']);
}

/**
 * Whether the body has COMPRESSION_THRESHOLD_BYTES or more: a buffer or string (a string has
 * at least as many UTF-8 bytes as UTF-16 units, so only a short one is measured), or a stream
 * of known length. A stream of unknown length is not: it is left as it is.
 */
function isLargeEnough(reply: FastifyReply, payload: unknown): boolean {
  if (typeof payload === 'string') {
    return payload.length >= COMPRESSION_THRESHOLD_BYTES || Buffer.byteLength(payload) >= COMPRESSION_THRESHOLD_BYTES;
  }
  if (Buffer.isBuffer(payload)) return payload.length >= COMPRESSION_THRESHOLD_BYTES;
  if (!isStream(payload)) return false;
  // NaN (no Content-Length) fails this test too, which is the point.
  return Number(headerText(reply, 'content-length') ?? Number.NaN) >= COMPRESSION_THRESHOLD_BYTES;
}
