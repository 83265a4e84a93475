import { parseLimitExceeded, queryParamError } from '../errors/api-errors.js';
import type { PgrstError } from '../errors/pgrst-error.js';
import type { EmbedPath, Filter, LogicTree, OrderTerm, QueryParams, RangeSpec, SelectItem } from './ast.js';
import { columnList, fieldName, logicTree, opExpr, orderTerms, restValue, selectList, treePath } from './grammar.js';
import { encodeComponent, parseQueryString } from './query-string.js';
import { ParseFailure, ParseLimitExceeded, positionMessage, Scanner } from './scanner.js';

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const RESERVED_EMBEDDABLE = new Set(['order', 'limit', 'offset', 'and', 'or']);

function lastSegment(key: string): string {
  const parts = key.split('.');
  return parts[parts.length - 1] ?? '';
}

/**
 * Runs a grammar rule on a whole parameter, turning failures into PGRST100. `parameter` names
 * the parameter for errors that are not Parsec's (`select parameter`, `parameter name`).
 */
function run<T>(parameter: string, source: string, input: string, rule: (s: Scanner) => T, offset = 0): T {
  const scanner = new Scanner(input);
  try {
    return rule(scanner);
  } catch (error) {
    if (error instanceof ParseFailure) {
      const failure = scanner.failure();
      throw queryParamError(positionMessage(source, input, failure.position + offset), failure.details);
    }
    if (error instanceof ParseLimitExceeded) {
      throw parseLimitExceeded(parameter, error.problem, input.slice(error.position), error.position + 1, error.hint);
    }
    if (error instanceof RangeError) {
      // Pathological inputs (deep nesting) must still end as a 400, never as a crash.
      throw queryParamError(positionMessage(source, input, 0), 'input is too complex');
    }
    throw error;
  }
}

/** Parses `select=` alone (also used by the property tests). */
export function parseSelect(value: string): SelectItem[] {
  return run('select parameter', `failed to parse select parameter (${value})`, value, (s) => selectList(s));
}

/** Parses a filter value such as `not.in.(1,2)` for `key`. */
export function parseFilter(key: string, value: string): { path: EmbedPath; filter: Filter } {
  const { path, field } = run('parameter name', `failed to parse tree path (${key})`, key, treePath);
  const expr = run('filter', `failed to parse filter (${value})`, value, (s) => opExpr(s, restValue));
  return { path, filter: { field, expr } };
}

/** Parses `order=` for `key`. */
export function parseOrder(key: string, value: string): { path: EmbedPath; terms: OrderTerm[] } {
  const { path } = run('parameter name', `failed to parse tree path (${key})`, key, treePath);
  const terms = run('order parameter', `failed to parse order (${value})`, value, orderTerms);
  return { path, terms };
}

/** Parses `or=`/`and=`/`not.or=` (possibly under an embed path) into a logic tree. */
export function parseLogic(key: string, value: string): { path: EmbedPath; tree: LogicTree } {
  const names = run('parameter name', `failed to parse logic path (${key})`, key, (s) => {
    const parts = [fieldName(s)];
    while (s.peek() === '.') {
      s.pos += 1;
      parts.push(fieldName(s));
    }
    return parts;
  });
  const op = names[names.length - 1] ?? '';
  const negated = names.includes('not');
  const path = names.slice(0, -1).filter((name) => name !== 'not');
  // PostgREST parses "or(...)" rather than "(...)", so positions count the operator too.
  const text = `${negated ? 'not.' : ''}${op}${value}`;
  const tree = run(`${op} parameter`, `failed to parse logic tree (${value})`, text, (s) => logicTree(s));
  return { path, tree };
}

/**
 * A `limit`/`offset` value read as PostgREST reads it, with Haskell's `readMaybe` into an
 * unbounded `Integer`: decimal digits, or `0x`/`0o` hexadecimal and octal, an optional `-`,
 * optional parentheses, surrounding spaces. Anything else (`abc`, `1.5`, `1e30`, `+1`) reads
 * as nothing, and PostgREST then ignores the parameter.
 */
export function parseRangeInteger(value: string): bigint | undefined {
  const match = /^\s*((?:\(\s*)*)(-\s*)?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|[0-9]+)\s*((?:\)\s*)*)$/.exec(value);
  if (!match) return undefined;
  const opened = (match[1] ?? '').replace(/\s/g, '').length;
  const closed = (match[4] ?? '').replace(/\s/g, '').length;
  if (opened !== closed) return undefined;
  const magnitude = BigInt(match[3] ?? '0');
  return match[2] !== undefined ? -magnitude : magnitude;
}

/**
 * Parses a query string into {@link QueryParams}, following PostgREST's classification:
 * reserved keys, keys ending in order/limit/offset/and/or, and every other key as a
 * filter. With `isRpcRead`, values without an operator become function arguments.
 * Throws PgrstError (PGRST100) on the first unparseable parameter.
 */
export function parseQueryParams(query: string, options: { isRpcRead?: boolean } = {}): QueryParams {
  const pairs = parseQueryString(query);
  const lookup = (name: string): string | undefined => {
    const found = pairs.find((pair) => pair.key === name);
    return found?.value ?? undefined;
  };
  const nonEmpty = pairs.filter((pair): pair is { key: string; value: string } => pair.value !== null);

  const order = nonEmpty
    .filter((pair) => lastSegment(pair.key) === 'order')
    .map((pair) => parseOrder(pair.key, pair.value));
  const logic = nonEmpty
    .filter((pair) => ['and', 'or'].includes(lastSegment(pair.key)))
    .map((pair) => parseLogic(pair.key, pair.value));
  const columnsValue = lookup('columns');
  const columns =
    columnsValue !== undefined
      ? run('columns parameter', `failed to parse columns parameter (${columnsValue})`, columnsValue, columnList)
      : undefined;
  // An empty `select=` means every column, as with no select at all.
  const selectValue = lookup('select') || '*';
  const select = parseSelect(selectValue);

  const filters: { path: EmbedPath; filter: Filter }[] = [];
  const rpcParams: { name: string; value: string }[] = [];
  for (const pair of nonEmpty) {
    if (RESERVED.has(pair.key) || RESERVED_EMBEDDABLE.has(lastSegment(pair.key))) continue;
    if (options.isRpcRead) {
      try {
        filters.push(parseFilter(pair.key, pair.value));
      } catch (error) {
        const { field } = run('parameter name', `failed to parse tree path (${pair.key})`, pair.key, treePath);
        if (!isQueryParamError(error)) throw error;
        rpcParams.push({ name: field.name, value: pair.value });
      }
    } else filters.push(parseFilter(pair.key, pair.value));
  }
  const onConflictValue = lookup('on_conflict');
  const onConflict =
    onConflictValue !== undefined
      ? run(
          'on_conflict parameter',
          `failed to parse on_conflict parameter (${onConflictValue})`,
          onConflictValue,
          columnList,
        )
      : undefined;

  return {
    select,
    filters,
    logic,
    order,
    ranges: parseRanges(nonEmpty),
    ...(columns !== undefined ? { columns } : {}),
    ...(onConflict !== undefined ? { onConflict } : {}),
    rpcParams,
    canonical: canonicalQuery(pairs),
  };
}

function isQueryParamError(error: unknown): error is PgrstError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'PGRST100';
}

/**
 * limit/offset per embed level; the last occurrence of a key wins, as in PostgREST. A value
 * that is no integer is ignored; integers are kept exactly, negative or beyond bigint ones
 * included: PostgreSQL refuses those in an embed's LIMIT/OFFSET, as with PostgREST (the top
 * level drops a negative offset, see `topLevelRange`).
 */
function parseRanges(pairs: { key: string; value: string }[]): Map<string, RangeSpec> {
  const limits = new Map<string, bigint | undefined>();
  const offsets = new Map<string, bigint | undefined>();
  for (const pair of pairs) {
    const segment = lastSegment(pair.key);
    if (segment !== 'limit' && segment !== 'offset') continue;
    const levelKey = pair.key.split('.').slice(0, -1).join('.');
    run('parameter name', `failed to parse tree path (${pair.key})`, pair.key, treePath);
    (segment === 'limit' ? limits : offsets).set(levelKey, parseRangeInteger(pair.value));
  }
  const ranges = new Map<string, RangeSpec>();
  for (const key of new Set([...limits.keys(), ...offsets.keys()])) {
    const limit = limits.get(key);
    const offset = offsets.get(key) ?? 0n;
    ranges.set(key, limit === undefined ? { offset } : { offset, limit });
  }
  return ranges;
}

function canonicalQuery(pairs: { key: string; value: string | null }[]): string {
  return [...pairs]
    .map((pair, index) => ({ ...pair, index }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map((pair) => `${encodeComponent(pair.key)}=${encodeComponent(pair.value ?? '')}`)
    .join('&');
}
