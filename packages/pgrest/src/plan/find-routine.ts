import { ambiguousFunction, noFunction } from '../errors/api-errors.js';
import type { MediaType } from '../parser/media-types.js';
import { closestMatch } from '../schema/fuzzy.js';
import { qualifiedKey, type Routine, type SchemaCache } from '../schema/schema-types.js';
import type { Visibility } from '../http/engine-state.js';

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function matchesParams(routine: Routine, keys: Set<string>, isPost: boolean, contentType: MediaType): boolean {
  const params = routine.params;
  if (params.length === 0)
    return keys.size === 0 && !(isPost && (contentType.kind === 'text' || contentType.kind === 'other'));
  const required = new Set(params.filter((param) => param.required).map((param) => param.name));
  const optional = new Set(params.filter((param) => !param.required).map((param) => param.name));
  if (optional.size === 0) return sameSet(keys, required);
  if (required.size === 0) return [...keys].every((key) => optional.has(key));
  return sameSet(new Set([...keys].filter((key) => !optional.has(key))), required);
}

function singleUnnamedJson(routine: Routine, isPost: boolean, contentType: MediaType): boolean {
  const [param] = routine.params;
  if (!isPost || routine.params.length !== 1 || !param || param.name !== '') return false;
  const jsonBody = contentType.kind === 'json' || contentType.kind === 'any';
  return jsonBody && (param.type === 'json' || param.type === 'jsonb');
}

function signature(routine: Routine): string {
  return `${routine.schema}.${routine.name}(${routine.params.map((param) => `${param.name} => ${param.type}`).join(', ')})`;
}

/**
 * The parameter type a POSTed text, xml or binary body goes to whole (PostgREST's single
 * unnamed text/xml/bytea parameter), or undefined for bodies that carry named arguments.
 */
export function rawBodyParamType(isPost: boolean, contentType: MediaType): string | undefined {
  if (!isPost) return undefined;
  if (contentType.kind === 'text') return 'text';
  if (contentType.kind !== 'other') return undefined;
  if (contentType.mime === 'text/xml') return 'xml';
  if (contentType.mime === 'application/octet-stream') return 'bytea';
  return undefined;
}

/**
 * Picks the function overload for the argument names given, as PostgREST's findProc:
 * required parameters must all be given, optional ones may be; a POSTed JSON body may
 * also go to a single unnamed json/jsonb parameter. PGRST202 (404) when nothing matches (a
 * function hidden by `visible` matches nothing), PGRST203 (300) when several do.
 */
export function findRoutine(
  cache: SchemaCache,
  schema: string,
  name: string,
  keys: Set<string>,
  isPost: boolean,
  contentType: MediaType,
  visible?: Visibility,
): Routine {
  // A function the host hides is answered as a missing one: no parameter list, no suggestion.
  const shown = (fn: string): boolean => !visible || visible({ schema, name: fn, kind: 'function' });
  const overloads = shown(name) ? (cache.routines.get(qualifiedKey({ schema, name })) ?? []) : [];
  const rawType = rawBodyParamType(isPost, contentType);
  if (rawType !== undefined) {
    const [only, ...others] = overloads.filter(
      (routine) => routine.params.length === 1 && routine.params[0]?.name === '' && routine.params[0].type === rawType,
    );
    if (only && others.length === 0) return only;
    throw noFunction(
      `Could not find the function ${schema}.${name} in the schema cache`,
      `Searched for the function ${schema}.${name} with a single unnamed ${rawType} parameter, but no matches were found in the schema cache.`,
      null,
    );
  }
  const named = overloads.filter((routine) => matchesParams(routine, keys, isPost, contentType));
  const fallback = overloads.filter(
    (routine) => !named.includes(routine) && singleUnnamedJson(routine, isPost, contentType),
  );
  if (named.length === 1 && named[0]) return named[0];
  if (named.length > 1) {
    throw ambiguousFunction(`Could not choose the best candidate function between: ${named.map(signature).join(', ')}`);
  }
  if (fallback.length === 1 && fallback[0]) return fallback[0];
  if (fallback.length > 1) {
    throw ambiguousFunction(
      `Could not choose the best candidate function between: ${fallback.map(signature).join(', ')}`,
    );
  }
  const sorted = [...keys].sort();
  const func = `${schema}.${name}`;
  const params = sorted.length === 0 ? ' without parameters' : `(${sorted.join(', ')})`;
  const detailParams =
    sorted.length === 0 ? ' without parameters' : ` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`;
  const jsonNote =
    isPost && (contentType.kind === 'json' || contentType.kind === 'any')
      ? ' or with a single unnamed json/jsonb parameter'
      : '';
  let hint: string | null = null;
  if (overloads.length === 0) {
    const names = [...cache.routines.values()]
      .flat()
      .filter((routine) => routine.schema === schema && shown(routine.name))
      .map((routine) => routine.name);
    const match = closestMatch(name, new Set(names), 0.75);
    if (match !== null) hint = `Perhaps you meant to call the function ${schema}.${match}`;
  } else {
    const toText = (list: string[]): string => `(${[...list].sort().join(', ')})`;
    const candidates = overloads.map((routine) => toText(routine.params.map((param) => param.name)));
    const match = closestMatch(toText(sorted), new Set(candidates), 0.33);
    if (match !== null) hint = `Perhaps you meant to call the function ${schema}.${name}${match}`;
  }
  throw noFunction(
    `Could not find the function ${func}${params} in the schema cache`,
    `Searched for the function ${func}${detailParams}${jsonNote}, but no matches were found in the schema cache.`,
    hint,
  );
}
