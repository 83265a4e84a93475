import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_YAML_LIMITS } from './health-yaml-fns.js';
import { createYamlReader, type YamlReader } from './health-yaml-reader.js';

const LIMITS = REQUEST_YAML_LIMITS;

/** A valid document of about 900 kB: 300 checks with long descriptions. */
const LARGE_DOCUMENT = [
  'apiVersion: canaries.flanksource.com/v1',
  'kind: Canary',
  'metadata: {name: big}',
  'spec:',
  '  exec:',
  ...Array.from(
    { length: 300 },
    (_, index) => `    - name: check-${index}\n      description: ${'x'.repeat(3000)}\n      script: "true"`,
  ),
].join('\n');

let reader: YamlReader | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

/** Runs `read` and reports whether the event loop turned (a setImmediate ran) before it settled. */
async function loopTurnedDuring(read: Promise<unknown>): Promise<{ turned: boolean; outcome: unknown }> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const outcome = await read;
  const turnedBefore = turned;
  return { turned: turnedBefore, outcome };
}

describe('createYamlReader', () => {
  it('reads a large document in the worker while the event loop keeps turning', async () => {
    reader = createYamlReader();
    const { turned, outcome } = await loopTurnedDuring(reader.read(LARGE_DOCUMENT, LIMITS));
    expect(turned).toBe(true);
    expect(outcome).toMatchObject({ ok: true, documents: [{ ok: true, index: 0 }] });
    const [document] = (outcome as { documents: { value: { spec: { exec: unknown[] } } }[] }).documents;
    expect(document?.value.spec.exec).toHaveLength(300);
  });

  it('refuses a 960 kB deeply nested document in the worker, naming the bound', async () => {
    reader = createYamlReader();
    const nested = `${'['.repeat(480_000)}${']'.repeat(480_000)}`;
    const { turned, outcome } = await loopTurnedDuring(reader.read(nested, LIMITS));
    expect(turned).toBe(true);
    expect(outcome).toEqual({
      ok: false,
      limit: 'depth',
      message: 'The YAML nests mappings and lists more than 100 levels deep (a canary needs about ten); flatten it.',
    });
  });

  it('reads a small document where it arrives', async () => {
    reader = createYamlReader();
    const { turned, outcome } = await loopTurnedDuring(reader.read('kind: Canary', LIMITS));
    expect(turned).toBe(false);
    expect(outcome).toEqual({ ok: true, documents: [{ ok: true, index: 0, value: { kind: 'Canary' } }] });
  });

  it('gives up on a read that takes too long, and reads the next one with a fresh worker', async () => {
    reader = createYamlReader({ timeoutMs: 1 });
    expect(await reader.read(LARGE_DOCUMENT, LIMITS)).toEqual({
      ok: false,
      limit: 'time',
      message: 'Reading the YAML took longer than 1 ms; send a smaller or simpler document.',
    });
    await reader.close();
    reader = createYamlReader();
    expect(await reader.read(LARGE_DOCUMENT, LIMITS)).toMatchObject({ ok: true });
  });

  it('refuses reads beyond its queue at once', async () => {
    reader = createYamlReader({ maxQueued: 1 });
    const reads = [1, 2, 3].map(() => reader!.read(LARGE_DOCUMENT, LIMITS));
    const outcomes = await Promise.all(reads);
    expect(outcomes.map((outcome) => (outcome.ok ? 'read' : outcome.limit))).toEqual(['read', 'read', 'busy']);
  });

  it('refuses reads after it is closed', async () => {
    const closing = createYamlReader();
    const queued = expect(closing.read(LARGE_DOCUMENT, LIMITS)).rejects.toThrow('The YAML reader is closed.');
    await closing.close();
    await queued;
    await expect(closing.read('a: 1', LIMITS)).rejects.toThrow('The YAML reader is closed.');
  });
});
