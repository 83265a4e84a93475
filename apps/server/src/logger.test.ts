import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('trace', sink), lines };
}

describe('logged errors', () => {
  it('carry message, code and stack only, never the node-postgres client a pool error hangs on them', () => {
    const { logger, lines } = capture();
    const client = new pg.Client({ connectionString: 'postgres://lookout:hunter2@127.0.0.1:1/lookout' });
    // What pg-pool emits when an idle connection dies: the error with the whole client on it.
    const error = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET', client });
    logger.warn({ err: error }, 'Idle database connection failed');

    const logged = lines[0]!.err as Record<string, unknown>;
    expect(Object.keys(logged).sort()).toEqual(['code', 'message', 'stack']);
    expect(logged).toMatchObject({ message: 'Connection terminated unexpectedly', code: 'ECONNRESET' });
    expect(logged.stack).toContain('logger.test.ts');
    expect(JSON.stringify(lines[0])).not.toContain('hunter2');
    expect(JSON.stringify(lines[0])).not.toContain('connectionParameters');
  });

  it('serializes an error given as the first argument the same way', () => {
    const { logger, lines } = capture();
    const error = Object.assign(new Error('boom'), { socket: { remoteAddress: '10.0.0.1' }, config: { url: 'x' } });
    logger.error(error);
    expect(Object.keys(lines[0]!.err as object).sort()).toEqual(['message', 'stack']);
  });

  it("keeps an error's code while codes in logged bodies stay redacted", () => {
    const { logger, lines } = capture();
    logger.info({ err: Object.assign(new Error('duplicate key'), { code: '23505' }), body: { code: '123456' } }, 'x');
    expect(lines[0]).toMatchObject({ err: { code: '23505' }, body: { code: '[redacted]' } });
  });

  it("folds a cause's message into the message, and an aggregate's errors into an empty one", () => {
    const { logger, lines } = capture();
    logger.warn({ err: new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') }) }, 'a');
    logger.warn({ err: new AggregateError([new Error('ECONNREFUSED ::1'), new Error('ECONNREFUSED 127.0.0.1')]) }, 'b');
    logger.warn({ err: 'a plain string' }, 'c');
    expect((lines[0]!.err as { message: string }).message).toBe(
      'fetch failed (cause: connect ECONNREFUSED 127.0.0.1:1)',
    );
    expect((lines[1]!.err as { message: string }).message).toBe('ECONNREFUSED ::1; ECONNREFUSED 127.0.0.1');
    expect(lines[2]!.err).toEqual({ message: 'a plain string' });
  });
});
