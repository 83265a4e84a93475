import { readFileSync } from 'node:fs';

/** The server's version, read once from its package.json (shipped beside src/ and dist/). */
export const SERVER_VERSION: string = (() => {
  const file = new URL('../package.json', import.meta.url);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
})();
