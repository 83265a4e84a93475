/**
 * The error a tester rejects with when the test's signal fires: the signal's own reason when it
 * is an Error (the service's time-out), otherwise one that says the test stopped.
 */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The connection test was cancelled');
}

/**
 * Settles with `work`, unless the signal fires first: then `close` runs (it destroys the
 * client's sockets, so nothing is left connected after the test answers) and the promise
 * rejects with the abort error. `close` also runs when `work` settles, so a client is closed
 * on every path; it must be safe to call twice.
 */
export function untilAborted<T>(signal: AbortSignal, work: Promise<T>, close: () => void): Promise<T> {
  if (signal.aborted) {
    close();
    work.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      close();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        close();
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        close();
        reject(asError(error));
      },
    );
  });
}

/** A thrown value as an Error, keeping an Error as it is. */
export function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new Error(typeof error === 'string' ? error : JSON.stringify(error));
}
