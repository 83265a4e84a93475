import type { Routine } from '../schema/schema-types.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

/** How arguments reach the function. */
export type CallArgs =
  /** Text values from the query string (GET), cast to each parameter's type. */
  | { kind: 'direct'; values: Map<string, string | string[]> }
  /** A JSON object body, unpacked with json_to_record into typed columns. */
  | { kind: 'json'; body: string; keys: string[]; isArray: boolean }
  /**
   * A body passed whole to a single unnamed parameter: JSON text to json/jsonb, text to
   * text/xml, bytes to bytea. Bytes that are not UTF-8 for a text parameter go to PostgreSQL
   * as they are (`convert_from`), which refuses them as it refuses such text from PostgREST.
   */
  | { kind: 'single'; body: string | Uint8Array };

/**
 * The type an argument is cast to. PostgREST passes `character`/`bit` arguments as their
 * varying forms: `'abcdefg'::character` would silently become `'a'` (character(1)) before the
 * function runs, while a varying value reaches it whole and only a fixed-width column refuses it.
 */
function argType(type: string): string {
  return type.replace(/^character(?=\[\]|$)/, 'character varying').replace(/^bit(?=\[\]|$)/, 'bit varying');
}

/**
 * The `pgrst_call` CTE: the function's rows under the column names the read plan uses.
 * Scalar results get one column named after the function, as PostgREST exposes them.
 * Types in casts and column definitions come from pg_catalog (format_type).
 */
export function callCteSql(routine: Routine, args: CallArgs, params: SqlParams): string {
  let from = '';
  let argList: string[] = [];
  if (args.kind === 'direct') {
    argList = routine.params
      .filter((param) => args.values.has(param.name))
      .map((param) => {
        const value = args.values.get(param.name);
        const placeholder = params.add(value);
        return `${param.variadic ? 'VARIADIC ' : ''}${quoteIdent(param.name)} := ${placeholder}::${argType(param.type)}`;
      });
  } else if (args.kind === 'json') {
    const used = routine.params.filter((param) => args.keys.includes(param.name));
    if (used.length > 0) {
      const definition = used.map((param) => `${quoteIdent(param.name)} ${argType(param.type)}`).join(', ');
      const body = args.isArray ? `(${params.add(args.body)}::json)->0` : `${params.add(args.body)}::json`;
      from = `json_to_record(${body}) AS "_a"(${definition})`;
      argList = used.map(
        (param) => `${param.variadic ? 'VARIADIC ' : ''}${quoteIdent(param.name)} := "_a".${quoteIdent(param.name)}`,
      );
    }
  } else {
    const type = routine.params[0]?.type ?? 'json';
    const value = params.add(args.body);
    argList = [
      typeof args.body === 'string' || type === 'bytea'
        ? `${value}::${type}`
        : `convert_from(${value}::bytea, 'UTF8')::${type}`,
    ];
  }
  const call = `${qualified(routine)}(${argList.join(', ')})`;
  const source = from === '' ? '' : `${from} CROSS JOIN LATERAL `;
  if (routine.returns.kind === 'composite') return `"pgrst_call" AS (SELECT "_f".* FROM ${source}${call} AS "_f")`;
  // A bare `record` has no column list to call it with in FROM; called in the select list it
  // yields the row itself, which becomes an object named by the function's own columns.
  if (routine.returns.type === 'record') {
    return `"pgrst_call" AS (SELECT ${call} AS ${quoteIdent(routine.name)}${from === '' ? '' : ` FROM ${from}`})`;
  }
  return `"pgrst_call" AS (SELECT "_f"."v" AS ${quoteIdent(routine.name)} FROM ${source}${call} AS "_f"("v"))`;
}
