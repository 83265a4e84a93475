import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import './embedded-postgres.js';
import { keepExitCode } from './keep-exit-code.js';

describe('embedded PostgreSQL and the exit code', () => {
  it("keeps embedded-postgres's signal handlers but not the exit ones that forced exit code 0", () => {
    const hooked = exitHook.hookedEvents();
    expect(hooked).toEqual(expect.arrayContaining(['SIGINT', 'SIGTERM']));
    expect(hooked).not.toContain('beforeExit');
    expect(hooked).not.toContain('exit');
  });

  it('can run again, as a test runner loading the module twice does', () => {
    expect(() => keepExitCode()).not.toThrow();
  });
});
