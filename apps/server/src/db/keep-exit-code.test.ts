import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import './embedded-postgres.js';
import { keepExitCode, leaveStopSignalsToCaller } from './keep-exit-code.js';

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

  it('leaves SIGINT and SIGTERM to `lookout serve`, which stops PostgreSQL after its workers', () => {
    leaveStopSignalsToCaller();
    leaveStopSignalsToCaller();
    expect(exitHook.hookedEvents()).not.toContain('SIGTERM');
    expect(exitHook.hookedEvents()).not.toContain('SIGINT');
  });
});
