/** A reference names an entry or key that is not there (a check fails with this message). */
export class SecretLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretLookupError';
  }
}
