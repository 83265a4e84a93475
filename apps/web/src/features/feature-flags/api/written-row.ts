/** A write to `/api/db/properties` that matched no row. */
export class PropertyNotWrittenError extends Error {
  constructor(name: string) {
    super(`Feature flag '${name}' was not found; refresh the list and try again.`);
    this.name = 'PropertyNotWrittenError';
  }
}

/**
 * Writes to `/api/db/properties` answer with the rows they wrote (`Prefer:
 * return=representation`). An empty answer means nothing matched, say a flag another admin
 * deleted meanwhile; the original console treated that as a failure too.
 */
export function expectWrittenRow(data: unknown, name: string): void {
  if (!Array.isArray(data) || data.length === 0) throw new PropertyNotWrittenError(name);
}
