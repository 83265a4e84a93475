import { CONNECTION_MESSAGES } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { prettyError, testOutcome } from './test-outcome-fns';

describe('testOutcome', () => {
  it("is ok only for HTTP 200 with message 'ok'", () => {
    expect(testOutcome(200, { message: 'ok' })).toEqual({ kind: 'ok', message: CONNECTION_MESSAGES.testOk });
    expect(testOutcome(200, { message: 'fine' }).kind).toBe('failed');
    expect(testOutcome(201, { message: 'ok' }).kind).toBe('failed');
  });

  it("carries the server's error, or 'Testing connection failed!' without one", () => {
    expect(testOutcome(400, { error: 'connection refused' })).toEqual({
      kind: 'failed',
      message: 'connection refused',
    });
    expect(testOutcome(400, { error: { message: 'Connection was not found' } }).message).toBe(
      'Connection was not found',
    );
    expect(testOutcome(400, null)).toEqual({ kind: 'failed', message: CONNECTION_MESSAGES.testFailed });
  });

  it('tells an untestable type apart', () => {
    expect(testOutcome(400, { error: CONNECTION_MESSAGES.testUnsupported }).kind).toBe('unsupported');
  });
});

describe('prettyError', () => {
  it('indents JSON objects and leaves other text alone', () => {
    expect(prettyError('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyError('"quoted"')).toBe('"quoted"');
    expect(prettyError('plain {text')).toBe('plain {text');
  });
});
