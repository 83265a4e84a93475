/**
 * Splits a raw query string into decoded key/value pairs the way PostgREST (http-types'
 * `parseQueryReplacePlus True`) does: `&` and `;` separate pairs, `+` is a space, percent
 * escapes are decoded as UTF-8, and a key without `=` has no value (`null`).
 */
export function parseQueryString(raw: string): { key: string; value: string | null }[] {
  const query = raw.startsWith('?') ? raw.slice(1) : raw;
  if (query === '') return [];
  const pairs: { key: string; value: string | null }[] = [];
  for (const part of query.split(/[&;]/)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq === -1) pairs.push({ key: decodeComponent(part), value: null });
    else pairs.push({ key: decodeComponent(part.slice(0, eq)), value: decodeComponent(part.slice(eq + 1)) });
  }
  return pairs;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Percent-decodes one component; malformed escapes are kept literally, as http-types does.
 * `+` is a space in query strings and form bodies, but itself in a path (`plusIsSpace` false).
 */
export function decodeComponent(text: string, plusIsSpace = true): string {
  if (!(plusIsSpace ? /[%+]/ : /%/).test(text)) return text;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char === '+' && plusIsSpace) bytes.push(0x20);
    else if (char === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(index + 1, index + 3))) {
      bytes.push(parseInt(text.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      for (const byte of Buffer.from(char, 'utf8')) bytes.push(byte);
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/** URL-encodes like Haskell's `urlEncode`: unreserved characters stay, the rest is `%XX`. */
export function encodeComponent(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A relation's name as the path of a response header (`Content-Location`, `Location`):
 * printable ASCII stays as it is, every other character is percent-encoded as UTF-8
 * (`größe` → `gr%C3%B6%C3%9Fe`). PostgREST writes the name's raw UTF-8 bytes there, which is
 * no valid URI and which Node refuses to send in a header at all.
 */
export function headerPath(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return name;
  let out = '';
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
