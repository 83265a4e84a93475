import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateScrapeExpression, evaluateScrapeText, splitItems } from './scrape-expression-fns.js';
import { loadJavascriptEngine, usesJavascript } from './scrape-javascript.js';

const doc = { kind: 'Deployment', metadata: { name: 'Web', namespace: 'shop' }, list: [{ n: 1 }, { n: 2 }] };

// A scrape run loads the WebAssembly engine on demand; pure tests load it up front.
beforeAll(() => loadJavascriptEngine());

describe('javascript scrape expressions (QuickJS sandbox)', () => {
  it('computes an id from the item as config, the last value being the result', () => {
    expect(
      evaluateScrapeText("javascript: config.metadata.namespace + '/' + config.metadata.name.toLowerCase()", doc),
    ).toBe('shop/web');
    expect(evaluateScrapeText('js: var parts = [config.kind, config.metadata.name]; parts.join("::")', doc)).toBe(
      'Deployment::Web',
    );
    expect(evaluateScrapeText('javascript: return config.list.length * 2', doc)).toBe('4');
    expect(evaluateScrapeText('javascript: config.missing', doc)).toBeUndefined();
    expect(evaluateScrapeText('javascript: ({ a: 1 })', doc)).toBe('{"a":1}');
    expect(splitItems('javascript: config.list.filter(function (x) { return x.n > 1 })', doc)).toEqual([{ n: 2 }]);
  });

  it('stops a script that loops forever, saying so', () => {
    const started = Date.now();
    expect(() => evaluateScrapeExpression('javascript: while (true) {}', doc)).toThrow(
      /^javascript 'while \(true\) \{\}': stopped after 100 ms \(time limit\)/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops a script that exhausts its memory or recurses without end', () => {
    expect(() =>
      evaluateScrapeExpression('javascript: var a = []; while (true) a.push({ i: a.length });', doc),
    ).toThrow(/^javascript .*(InternalError: out of memory|time limit)/);
    expect(() => evaluateScrapeExpression('javascript: function f() { return f() + 1 } f()', doc)).toThrow(
      /^javascript .*InternalError: stack overflow/,
    );
    expect(evaluateScrapeText('javascript: config.kind', doc)).toBe('Deployment');
  });

  it('gives the script no host functions: require, process, console and fetch do not exist', () => {
    expect(() => evaluateScrapeExpression("javascript: require('fs').readFileSync('/etc/passwd')", doc)).toThrow(
      /^javascript .*ReferenceError: 'require' is not defined/,
    );
    expect(() => evaluateScrapeExpression('javascript: process.env.HOME', doc)).toThrow(
      /ReferenceError: 'process' is not defined/,
    );
    expect(
      evaluateScrapeText('javascript: [typeof require, typeof process, typeof console, typeof fetch].join()', doc),
    ).toBe('undefined,undefined,undefined,undefined');
  });

  it('names a syntax error and leaves no state between evaluations', () => {
    expect(() => evaluateScrapeExpression('javascript: config.kind +', doc)).toThrow(
      /^javascript 'config.kind \+': SyntaxError/,
    );
    expect(evaluateScrapeText('javascript: globalThis.leak = 1; 1', doc)).toBe('1');
    expect(evaluateScrapeText('javascript: typeof leak', doc)).toBe('undefined');
  });
});

describe('usesJavascript', () => {
  it('finds a javascript or js: expression anywhere in a spec, and nothing else', () => {
    expect(usesJavascript({ file: [{ id: '$.id', name: 'expr: config.name' }] })).toBe(false);
    expect(usesJavascript({ file: [{ id: '$.id', transform: { relationship: [{ name: 'js: config.x' }] } }] })).toBe(
      true,
    );
    expect(usesJavascript({ http: [{ type: 'javascript: "A"' }] })).toBe(true);
  });
});
