/** The encodings Lookout compresses with, in order of preference when a client takes both. */
export const CONTENT_ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof CONTENT_ENCODINGS)[number];

/**
 * The encoding to answer with, from Accept-Encoding: the accepted one (q > 0) with the
 * highest q, brotli on a tie; `*` stands for any encoding not named; undefined means send
 * the body as it is.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: ContentEncoding) =>
    weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: ContentEncoding | undefined;
  for (const encoding of CONTENT_ENCODINGS) {
    const weight = weightOf(encoding);
    if (weight > 0 && (best === undefined || weight > weightOf(best))) best = encoding;
  }
  return best;
}

/**
 * Whether a body of this Content-Type shrinks when compressed: text (but not
 * `text/event-stream`, whose events must reach the client as they are written), JSON, XML,
 * YAML, JavaScript (with their `+json`/`+xml` variants, such as PostgREST's
 * `application/vnd.pgrst.object+json`) and SVG. Images, archives and fonts are compressed
 * already.
 */
export function isCompressibleType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return false;
  if (type.startsWith('text/')) return true;
  if (type === 'image/svg+xml') return true;
  if (!type.startsWith('application/')) return false;
  return /(?:^|[/+.-])(json|xml|yaml|x-yaml|javascript|x-javascript|ecmascript)$/.test(type);
}

/** `Vary` with `Accept-Encoding` added once to what it already lists. */
export function varyWithAcceptEncoding(current: string | undefined): string {
  if (!current || current.trim() === '') return 'Accept-Encoding';
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes('accept-encoding')) return current;
  return `${current}, Accept-Encoding`;
}

/** A strong ETag made weak: the compressed body is not byte-for-byte the entity it names. */
export function weakenEtag(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}
