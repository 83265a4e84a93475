/** Parsed `Prefer` header (RFC 7240), with PostgREST's vocabulary. */
export type Preferences = {
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  tx?: 'commit' | 'rollback';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  timezone?: string;
  maxAffected?: number;
  /** Preferences that were not understood (reported with `handling=strict`). */
  invalid: string[];
};

const KNOWN: Record<string, [keyof Preferences, string]> = {
  'resolution=merge-duplicates': ['resolution', 'merge-duplicates'],
  'resolution=ignore-duplicates': ['resolution', 'ignore-duplicates'],
  'return=representation': ['return', 'representation'],
  'return=minimal': ['return', 'minimal'],
  'return=headers-only': ['return', 'headers-only'],
  'count=exact': ['count', 'exact'],
  'count=planned': ['count', 'planned'],
  'count=estimated': ['count', 'estimated'],
  'tx=commit': ['tx', 'commit'],
  'tx=rollback': ['tx', 'rollback'],
  'missing=default': ['missing', 'default'],
  'missing=null': ['missing', 'null'],
  'handling=strict': ['handling', 'strict'],
  'handling=lenient': ['handling', 'lenient'],
};

/**
 * Parses the `Prefer` header. As in PostgREST, the first value of each preference wins,
 * `tx=` is only honoured when the transaction end allows overriding, and `timezone=` only
 * for names the database knows.
 */
export function parsePreferences(
  header: string | undefined,
  options: { allowTxOverride: boolean; isTimezone?: (name: string) => boolean },
): Preferences {
  const result: Preferences = { invalid: [] };
  const record = result as Record<string, unknown>;
  if (header === undefined) return result;
  // Empty items stay (PostgREST reports `Prefer: a,,b` as having an invalid "" preference).
  const values = header.split(',').map((value) => value.trim());
  // Only the first `max-affected=` and `timezone=` count (a later one never replaces an
  // unusable first one); `max-affected=` is never reported as invalid, and `timezone=` is
  // invalid, everywhere, when the first one names no known zone.
  const maxAffected = values.find((value) => value.startsWith('max-affected='))?.slice('max-affected='.length);
  if (maxAffected !== undefined && /^-?[0-9]+$/.test(maxAffected)) {
    const parsed = Number(maxAffected);
    if (Number.isSafeInteger(parsed)) result.maxAffected = parsed;
  }
  const timezone = values.find((value) => value.startsWith('timezone='))?.slice('timezone='.length);
  const timezoneAccepted = timezone !== undefined && options.isTimezone?.(timezone) === true;
  if (timezoneAccepted) result.timezone = timezone;
  for (const value of values) {
    const known = KNOWN[value];
    if (known) {
      const [key, setting] = known;
      if (key === 'tx' && !options.allowTxOverride) continue;
      if (record[key] === undefined) record[key] = setting;
      continue;
    }
    if (value.startsWith('max-affected=')) continue;
    if (value.startsWith('timezone=') && timezoneAccepted) continue;
    result.invalid.push(value);
  }
  return result;
}

/**
 * `Preference-Applied` value listing the given preferences in PostgREST's order, or
 * undefined when none apply.
 */
export function preferenceApplied(
  prefs: Preferences,
  include: (keyof Omit<Preferences, 'invalid'>)[],
): string | undefined {
  const parts: string[] = [];
  const order: (keyof Omit<Preferences, 'invalid'>)[] = [
    'resolution',
    'missing',
    'return',
    'count',
    'tx',
    'handling',
    'timezone',
    'maxAffected',
  ];
  for (const key of order) {
    if (!include.includes(key)) continue;
    const value = prefs[key];
    if (value === undefined) continue;
    if (key === 'maxAffected') {
      if (prefs.handling === 'strict') parts.push(`max-affected=${String(value)}`);
    } else parts.push(`${key}=${String(value)}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
