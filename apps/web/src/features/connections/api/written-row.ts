/** A write to `/api/db/connections` that matched no row. */
export class ConnectionNotWrittenError extends Error {
  constructor(name: string) {
    super(`Connection '${name}' was not found; refresh the list and try again.`);
    this.name = 'ConnectionNotWrittenError';
  }
}

/**
 * Writes answer with the rows they wrote (`Prefer: return=representation`); an empty answer
 * means nothing matched, say a connection another admin deleted meanwhile.
 */
export function expectWrittenRow(data: unknown, name: string): void {
  if (!Array.isArray(data) || data.length === 0) throw new ConnectionNotWrittenError(name);
}
