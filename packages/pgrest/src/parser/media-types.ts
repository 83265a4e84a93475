/** Media types the engine distinguishes. */
export type MediaType =
  | { kind: 'json' }
  | { kind: 'object'; stripNulls: boolean }
  | { kind: 'array'; stripNulls: boolean }
  | { kind: 'csv' }
  | { kind: 'any' }
  | { kind: 'openapi' }
  | { kind: 'form' }
  | { kind: 'text' }
  | { kind: 'other'; mime: string };

/** Decodes one media type with its parameters (`application/vnd.pgrst.object+json;nulls=stripped`). */
export function decodeMediaType(raw: string): MediaType {
  const [typePart = '', ...paramParts] = raw.split(';');
  const type = typePart.trim().toLowerCase();
  const params = new Map(
    paramParts.map((part) => {
      const [key = '', value = ''] = part.split('=');
      return [key.trim().toLowerCase(), value.trim().toLowerCase()] as const;
    }),
  );
  const stripNulls = params.get('nulls') === 'stripped';
  switch (type) {
    case 'application/json':
      return { kind: 'json' };
    case 'application/vnd.pgrst.object+json':
    case 'application/vnd.pgrst.object':
      return { kind: 'object', stripNulls };
    case 'application/vnd.pgrst.array+json':
    case 'application/vnd.pgrst.array':
      // Without nulls=stripped PostgREST treats it as plain application/json (and says so in
      // Content-Type).
      return stripNulls ? { kind: 'array', stripNulls } : { kind: 'json' };
    case 'text/csv':
      return { kind: 'csv' };
    case '*/*':
      return { kind: 'any' };
    case 'application/openapi+json':
      return { kind: 'openapi' };
    case 'application/x-www-form-urlencoded':
      return { kind: 'form' };
    case 'text/plain':
      return { kind: 'text' };
    default:
      return { kind: 'other', mime: typePart.trim() };
  }
}

/** The MIME string PostgREST prints for a media type (in 406 messages and Content-Type). */
export function mediaTypeMime(type: MediaType): string {
  switch (type.kind) {
    case 'json':
      return 'application/json';
    case 'object':
      // No space before the parameter: PostgREST's Content-Type is `...+json;nulls=stripped`.
      return `application/vnd.pgrst.object+json${type.stripNulls ? ';nulls=stripped' : ''}`;
    case 'array':
      return `application/vnd.pgrst.array+json${type.stripNulls ? ';nulls=stripped' : ''}`;
    case 'csv':
      return 'text/csv';
    case 'any':
      return '*/*';
    case 'openapi':
      return 'application/openapi+json';
    case 'form':
      return 'application/x-www-form-urlencoded';
    case 'text':
      return 'text/plain';
    case 'other':
      return type.mime;
  }
}

/**
 * The `Accept` header as an ordered list of media types: highest `q` first, ties kept in
 * header order; `q=0` entries dropped. A missing header means `*\/*`.
 */
export function parseAccept(header: string | undefined): MediaType[] {
  if (header === undefined || header.trim() === '') return [{ kind: 'any' }];
  const entries = header
    .split(',')
    .map((part, index) => {
      const pieces = part.split(';').map((piece) => piece.trim());
      let quality = 1;
      const kept: string[] = [pieces[0] ?? ''];
      for (const piece of pieces.slice(1)) {
        const match = /^q\s*=\s*([0-9.]+)$/i.exec(piece);
        if (match) quality = Number(match[1]);
        else if (piece !== '') kept.push(piece);
      }
      return { raw: kept.join(';'), quality, index };
    })
    .filter((entry) => entry.raw !== '' && entry.quality > 0);
  entries.sort((a, b) => b.quality - a.quality || a.index - b.index);
  return entries.map((entry) => decodeMediaType(entry.raw));
}
