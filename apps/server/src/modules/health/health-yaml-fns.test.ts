import { CANARY_YAML_LIMITS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { checkYamlLimits, readCanaryYaml, REQUEST_YAML_LIMITS } from './health-yaml-fns.js';

const LIMITS = REQUEST_YAML_LIMITS;

/** The smallest maxDepth a text passes with (so its nesting as the scan measures it). */
function measuredDepth(text: string): number {
  for (let depth = 1; depth <= 50; depth += 1) {
    if (checkYamlLimits(text, { ...LIMITS, maxDepth: depth }).ok) return depth;
  }
  throw new Error('deeper than 50');
}

/** A canary as people write them: block scalars, comments, quotes, flow lists, anchors. */
const REAL_CANARY = `# Production checks [owned by sre]
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: web
  labels: { team: sre, "tier": 'front [edge]' }
spec:
  schedule: "@every 1m"
  http:
    - name: home
      url: https://example.com/?q=[a]
      responseCodes: [200, 201]
      headers:
        - name: Authorization
          valueFrom:
            secretKeyRef: { name: web-token, key: token }
      test:
        expr: >-
          code == 200 && json.items.all(i, i.ready) && {"a": [1, [2, [3]]]}.size() > 0
  exec:
    - name: script
      script: |
        if [ -d /tmp ]; then
          for f in [[[ {{{; do
            echo "$f"
          done
        fi
      labels: &common
        team: sre
    - name: other
      script: "echo '[[[['"
      labels: *common
`;

describe('checkYamlLimits', () => {
  it('measures a real canary at the nesting the parser sees, ignoring brackets in scalars and comments', () => {
    // the document's mapping → spec → http → http[0] → headers → headers[0] → valueFrom → secretKeyRef
    expect(measuredDepth(REAL_CANARY)).toBe(8);
    expect(readCanaryYaml(REAL_CANARY, LIMITS)).toMatchObject({ ok: true, documents: [{ ok: true, index: 0 }] });
  });

  it('counts flow collections, block collections and compact sequences as levels', () => {
    expect(measuredDepth('a: 1')).toBe(1);
    expect(measuredDepth('a:\n  b:\n    c: 1')).toBe(3);
    expect(measuredDepth('a: {b: {c: [1]}}')).toBe(4);
    expect(measuredDepth('- - - 1')).toBe(3);
    expect(measuredDepth('a:\n- b:\n  - c: 1')).toBe(5);
    expect(measuredDepth('? - a\n  - b\n: c')).toBe(2);
    expect(measuredDepth('a:\n- 1\nb:\n  c:\n    d: 2\ne: 3')).toBe(3);
  });

  it('refuses deep nesting after reading only as far as the bound, in any notation', () => {
    const bound = { ...LIMITS, maxDepth: 100 };
    expect(checkYamlLimits(`${'['.repeat(480_000)}${']'.repeat(480_000)}`, bound)).toMatchObject({ limit: 'depth' });
    expect(checkYamlLimits(`${'{a: '.repeat(200_000)}1${'}'.repeat(200_000)}`, bound)).toMatchObject({
      limit: 'depth',
    });
    expect(checkYamlLimits(`${'- '.repeat(300_000)}1`, bound)).toMatchObject({ limit: 'depth' });
    const indented = Array.from({ length: 1300 }, (_, level) => `${' '.repeat(level)}a:`).join('\n');
    expect(checkYamlLimits(indented, bound)).toMatchObject({ limit: 'depth' });
    const sameColumn = Array.from({ length: 120 }, (_, level) => `${'  '.repeat(level)}- a:`).join('\n');
    expect(checkYamlLimits(`root:\n${sameColumn}`, bound)).toMatchObject({ limit: 'depth' });
  });

  it('refuses too many aliases, too many documents and too many bytes', () => {
    expect(checkYamlLimits(`a: &a 1\nb: [${'*a, '.repeat(101)}]`, LIMITS)).toMatchObject({ limit: 'aliases' });
    expect(checkYamlLimits('a: 1\n---\n'.repeat(1001), LIMITS)).toMatchObject({ limit: 'documents' });
    expect(checkYamlLimits('---\n'.repeat(1000), LIMITS)).toEqual({ ok: true });
    expect(checkYamlLimits(`a: "${'é'.repeat(1_100_000)}"`, LIMITS)).toMatchObject({
      limit: 'size',
      message: `The YAML is larger than ${CANARY_YAML_LIMITS.requestBytes} bytes; split it into smaller files or documents.`,
    });
  });
});

describe('readCanaryYaml', () => {
  it('reads every document of a YAML stream and skips empty ones', () => {
    expect(readCanaryYaml('apiVersion: a\nkind: Canary\n---\n---\nkind: Canary\n', LIMITS)).toEqual({
      ok: true,
      documents: [
        { ok: true, index: 0, value: { apiVersion: 'a', kind: 'Canary' } },
        { ok: true, index: 2, value: { kind: 'Canary' } },
      ],
    });
  });

  it('says where a YAML syntax error is', () => {
    const read = readCanaryYaml('kind: Canary\nspec:\n  http: [\n', LIMITS);
    expect(read.ok).toBe(true);
    const [document] = read.ok ? read.documents : [];
    expect(document?.ok).toBe(false);
    if (document && !document.ok) expect(document.message).toMatch(/^line \d+, column \d+: /);
  });

  it('refuses an alias bomb without expanding it', () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    expect(readCanaryYaml(bomb, LIMITS)).toEqual({
      ok: false,
      limit: 'aliases',
      message: 'The YAML uses more than 100 aliases (*name); write the repeated values out instead.',
    });
  });

  it('keeps a few aliases working', () => {
    expect(readCanaryYaml('a: &x {b: 1}\nc: *x\nd: *x', LIMITS)).toEqual({
      ok: true,
      documents: [{ ok: true, index: 0, value: { a: { b: 1 }, c: { b: 1 }, d: { b: 1 } } }],
    });
  });

  it('refuses a 960 kB deeply nested body before parsing it, saying so', () => {
    const nested = `${'['.repeat(480_000)}${']'.repeat(480_000)}`;
    expect(readCanaryYaml(nested, LIMITS)).toEqual({
      ok: false,
      limit: 'depth',
      message: 'The YAML nests mappings and lists more than 100 levels deep (a canary needs about ten); flatten it.',
    });
  });
});
