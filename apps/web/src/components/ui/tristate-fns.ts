import { TRISTATE, type TristateValue } from '@lookout/contracts';

/** A tristate filter's value: each mentioned option is included (1) or excluded (-1). */
export type TristateSelection = Record<string, Exclude<TristateValue, 0>>;

// The data API splits `<col>.filter=` lists on ',' and value from state on ':', so those two
// characters are written as these markers inside values (and read back the same way).
const ESCAPES = [
  [':', '____'],
  [',', '||||'],
] as const;

/** Escapes ':' as '____' and ',' as '||||' inside one value. */
export function escapeTristateValue(value: string): string {
  return ESCAPES.reduce((text, [raw, escaped]) => text.replaceAll(raw, escaped), value);
}

/** Reverses {@link escapeTristateValue}. */
export function unescapeTristateValue(value: string): string {
  return ESCAPES.reduce((text, [raw, escaped]) => text.replaceAll(escaped, raw), value);
}

/** The cycle of one option: none, then include, then exclude, then none again. */
export function nextTristate(state: TristateValue): TristateValue {
  if (state === TRISTATE.none) return TRISTATE.include;
  if (state === TRISTATE.include) return TRISTATE.exclude;
  return TRISTATE.none;
}

/** State of one option; options not in the selection are none (0). */
export function tristateOf(selection: TristateSelection, value: string): TristateValue {
  return selection[value] ?? TRISTATE.none;
}

/** A copy of `selection` with `value` set to `state`; none removes it. */
export function setTristate(selection: TristateSelection, value: string, state: TristateValue): TristateSelection {
  if (state !== TRISTATE.none) return { ...selection, [value]: state }; // keeps the key's position
  const { [value]: _removed, ...rest } = selection;
  return rest;
}

/**
 * URL form of a selection (spec 1, section 9: values stored as value:1 or value:-1):
 * `{a: 1, b: -1}` is `a:1,b:-1`. An empty selection is ''.
 */
export function serializeTristate(selection: TristateSelection): string {
  return Object.entries(selection)
    .map(([value, state]) => `${escapeTristateValue(value)}:${state}`)
    .join(',');
}

/** Reads the URL form back; malformed entries are skipped. */
export function parseTristate(param: string | null | undefined): TristateSelection {
  const selection: TristateSelection = {};
  if (!param) return selection;
  for (const entry of param.split(',')) {
    const separator = entry.lastIndexOf(':');
    if (separator <= 0) continue;
    const state = entry.slice(separator + 1);
    const value = unescapeTristateValue(entry.slice(0, separator));
    if (state === '1') selection[value] = TRISTATE.include;
    else if (state === '-1') selection[value] = TRISTATE.exclude;
  }
  return selection;
}

/**
 * Query form for the data API's `<col>.filter=` parameter (spec 1, section 4): included values
 * as they are, excluded ones with a '!' prefix, values escaped: `{a: 1, b: -1}` is `a,!b`.
 */
export function tristateToQueryParam(selection: TristateSelection): string {
  return Object.entries(selection)
    .map(([value, state]) => `${state === TRISTATE.exclude ? '!' : ''}${escapeTristateValue(value)}`)
    .join(',');
}

/** Converts the URL form straight to the query form. */
export function tristateParamToQueryParam(param: string | null | undefined): string {
  return tristateToQueryParam(parseTristate(param));
}
