import { ConfigError } from './config-error.js';

/** One step of a PostgREST JSPath (`.role`, `."https://x/role"`, `[0]`). */
export type JsPathStep = { key: string } | { index: number };
export type JsPath = JsPathStep[];

/**
 * Parses the subset of PostgREST's JSPath used for `jwt-role-claim-key`: `.key`, `."quoted key"`
 * and `[index]`, e.g. `.realm_access.roles[0]` or `."https://example.com/role"`.
 */
export function parseJsPath(text: string): JsPath {
  const steps: JsPath = [];
  let i = 0;
  const fail = (problem: string): never => {
    throw new ConfigError(
      'jwt-role-claim-key',
      `${problem} in ${JSON.stringify(text)} (expected e.g. .role, ."quoted", [0])`,
    );
  };
  if (text.length === 0) fail('empty path');
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === '.') {
      i++;
      if (text.charAt(i) === '"') {
        const end = text.indexOf('"', i + 1);
        if (end === -1) fail('unterminated quoted key');
        steps.push({ key: text.slice(i + 1, end) });
        i = end + 1;
      } else {
        const match = /^[A-Za-z0-9_$-]+/.exec(text.slice(i));
        if (!match) fail(`expected a key at position ${i + 1}`);
        const key = (match as RegExpExecArray)[0];
        steps.push({ key });
        i += key.length;
      }
    } else if (ch === '[') {
      const match = /^\[(\d+)\]/.exec(text.slice(i));
      if (!match) fail(`expected [index] at position ${i + 1}`);
      const [whole, digits] = match as RegExpExecArray;
      steps.push({ index: Number(digits) });
      i += whole.length;
    } else {
      fail(`unexpected ${JSON.stringify(ch)} at position ${i + 1}`);
    }
  }
  return steps;
}
