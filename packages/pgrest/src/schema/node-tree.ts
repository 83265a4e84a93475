/*
 * A reader for PostgreSQL's node-tree text (pg_rewrite.ev_action), just enough to find
 * which base-table column each view column comes from. PostgREST does the same to let
 * views inherit their base tables' foreign keys.
 */

/** A parsed node-tree value. */
export type NodeValue = string | null | NodeList | NodeObject;
/** `( ... )` */
export type NodeList = { type: 'list'; items: NodeValue[] };
/** `{NAME :field value ...}` */
export type NodeObject = { type: 'node'; name: string; fields: Map<string, NodeValue[]> };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? '';
    if (char === ' ' || char === '\n' || char === '\t' || char === '\r') {
      index += 1;
      continue;
    }
    if ('{}()'.includes(char)) {
      tokens.push(char);
      index += 1;
      continue;
    }
    let token = '';
    if (char === '"') {
      // Quoted strings (PostgreSQL 16+ writes some strings this way).
      index += 1;
      while (index < text.length && text[index] !== '"') {
        if (text[index] === '\\') index += 1;
        token += text[index] ?? '';
        index += 1;
      }
      index += 1;
      tokens.push(token);
      continue;
    }
    while (index < text.length) {
      const current = text[index] ?? '';
      if (' \n\t\r{}()'.includes(current)) break;
      if (current === '\\') {
        token += text[index + 1] ?? '';
        index += 2;
        continue;
      }
      token += current;
      index += 1;
    }
    tokens.push(token);
  }
  return tokens;
}

/** Parses node-tree text; returns null when the text is not understood. */
export function parseNodeTree(text: string): NodeValue {
  const tokens = tokenize(text);
  let position = 0;

  function value(): NodeValue {
    const token = tokens[position];
    if (token === undefined) throw new Error('unexpected end of node tree');
    position += 1;
    if (token === '(') {
      const items: NodeValue[] = [];
      while (tokens[position] !== ')') {
        if (position >= tokens.length) throw new Error('unterminated list');
        items.push(value());
      }
      position += 1;
      return { type: 'list', items };
    }
    if (token === '{') {
      const name = tokens[position] ?? '';
      position += 1;
      const fields = new Map<string, NodeValue[]>();
      let current: NodeValue[] | undefined;
      while (tokens[position] !== '}') {
        if (position >= tokens.length) throw new Error('unterminated node');
        const next = tokens[position] ?? '';
        if (next.startsWith(':') && next.length > 1) {
          current = [];
          fields.set(next.slice(1), current);
          position += 1;
          continue;
        }
        const item = value();
        current?.push(item);
      }
      position += 1;
      return { type: 'node', name, fields };
    }
    return token === '<>' ? null : token;
  }

  try {
    return value();
  } catch {
    return null;
  }
}

/** A view column's origin: the relation oid and column number it reads. */
export type ColumnOrigin = { resno: number; relationOid: number; attnum: number };

/**
 * For a view's `_RETURN` rule, the base column each output column reads directly
 * (`resorigtbl`/`resorigcol` of the top-level target list), by output position `resno`.
 * Computed columns are absent.
 */
export function viewColumnOrigins(evAction: string): ColumnOrigin[] {
  const tree = parseNodeTree(evAction);
  const query = tree && typeof tree === 'object' && tree.type === 'list' ? tree.items[0] : tree;
  if (!query || typeof query !== 'object' || query.type !== 'node' || query.name !== 'QUERY') return [];
  const targetList = query.fields.get('targetList')?.[0];
  if (!targetList || typeof targetList !== 'object' || targetList.type !== 'list') return [];
  const origins: ColumnOrigin[] = [];
  for (const entry of targetList.items) {
    if (!entry || typeof entry !== 'object' || entry.type !== 'node' || entry.name !== 'TARGETENTRY') continue;
    const scalar = (name: string): string | undefined => {
      const found = entry.fields.get(name)?.[0];
      return typeof found === 'string' ? found : undefined;
    };
    if (scalar('resjunk') === 'true') continue;
    const resno = Number(scalar('resno'));
    const relationOid = Number(scalar('resorigtbl'));
    const attnum = Number(scalar('resorigcol'));
    if (!(resno > 0) || !Number.isFinite(relationOid) || relationOid === 0 || !(attnum > 0)) continue;
    origins.push({ resno, relationOid, attnum });
  }
  return origins;
}
