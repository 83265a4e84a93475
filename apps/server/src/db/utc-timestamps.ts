import type pg from 'pg';

const TIMESTAMPTZ_OID = 1184;

/**
 * A `timestamptz` as PostgreSQL writes it in a session whose TimeZone is UTC
 * (`2026-11-21 18:56:49.458264+00`), turned into what Date#toISOString gives for it
 * (`2026-11-21T18:56:49.458Z`, microseconds truncated as a Date does) by moving characters.
 * Parsing thousands of them into Dates only to print them again was a third of a large
 * response's time. Anything else (another zone, a year past 9999, BC, infinity) goes through
 * Date, or stays as PostgreSQL wrote it when Date cannot read it.
 */
export function utcTimestampToIso(text: string): string {
  const n = text.length;
  if (
    n >= 22 &&
    text[4] === '-' &&
    text[10] === ' ' &&
    text[n - 3] === '+' &&
    text[n - 2] === '0' &&
    text[n - 1] === '0'
  ) {
    const fraction = text[19] === '.' ? text.slice(20, n - 3) : '';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${`${fraction}000`.slice(0, 3)}Z`;
  }
  const date = new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/**
 * Query `types` that read `timestamptz` columns as ISO strings (see utcTimestampToIso). Only for
 * queries run after `SET LOCAL timezone = 'UTC'`; every other type keeps node-postgres's parser.
 */
export function isoTimestampTypes(base: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === TIMESTAMPTZ_OID && format !== 'binary'
        ? utcTimestampToIso
        : base.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}
