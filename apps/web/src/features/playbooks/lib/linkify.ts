/** A piece of output text: plain, or a link that is safe to make clickable. */
export type OutputSegment = { text: string; href?: undefined } | { text: string; href: string };

// Greedy up to whitespace or a quote/bracket that commonly wraps a URL in logs.
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
// Punctuation that ends a sentence rather than a URL.
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * Splits output into text and links. Only http and https addresses become links (spec 2 section
 * 2.5): `javascript:`, `file://` and others stay text, so a run's output cannot script the page.
 */
export function linkify(text: string): OutputSegment[] {
  const segments: OutputSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let url = match[0];
    const trailing = TRAILING.exec(url);
    if (trailing) url = url.slice(0, url.length - trailing[0].length);
    if (!/^https?:\/\//i.test(url)) continue;
    if (start > last) segments.push({ text: text.slice(last, start) });
    segments.push({ text: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

// ANSI colour and cursor sequences (ESC [ ... letter); shell output is full of them.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Output without terminal escape sequences, which would show as garbage in the page. */
export const stripAnsi = (text: string): string => text.replace(ANSI, '');
