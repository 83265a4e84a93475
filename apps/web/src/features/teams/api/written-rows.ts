/** A write to a team that matched no row: deleted, or changed by someone else, meanwhile. */
export class TeamNotWrittenError extends Error {
  constructor(name: string) {
    super(`Team '${name}' was not found; it may have been deleted. Refresh the list and try again.`);
    this.name = 'TeamNotWrittenError';
  }
}

/**
 * Writes through `/api/db` answer with the rows they wrote (`Prefer: return=representation`).
 * An empty answer means nothing matched, which the page reports instead of a success.
 */
export function expectWrittenRows(data: unknown, name: string): unknown[] {
  if (!Array.isArray(data) || data.length === 0) throw new TeamNotWrittenError(name);
  return data;
}
