import type { Field, LogicTree, OpExpr, OrderTerm, SelectItem } from './ast.js';

/*
 * The inverse of the parser: AST back to PostgREST's URL grammar (decoded values, before
 * percent-encoding). Used by the round-trip property tests and handy for building URLs.
 */

const PLAIN_NAME = /^[\p{L}0-9_$]+(?:-[\p{L}0-9_$]+)*$/u;

/** A name, quoted when it would not parse bare. */
export function printName(name: string): string {
  if (PLAIN_NAME.test(name) && name.trim() === name) return name;
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `col->a->>0` */
export function printField(field: Field): string {
  let out = printName(field.name);
  for (const step of field.jsonPath) {
    const key = step.operand.value;
    // A bare numeric key would read back as an array index.
    const operand =
      step.operand.kind === 'index'
        ? String(key)
        : /^-?[0-9]+$/.test(String(key))
          ? `"${String(key)}"`
          : printName(String(key));
    out += `${step.arrow}${operand}`;
  }
  return out;
}

/** `select=` value. */
export function printSelect(items: SelectItem[]): string {
  return items
    .map((item) => {
      if (item.type === 'field') {
        if (item.field.name === '*' && item.field.jsonPath.length === 0 && !item.aggregate) return '*';
        const alias = item.alias !== undefined ? `${printName(item.alias)}:` : '';
        const cast = item.cast !== undefined ? `::${item.cast}` : '';
        return `${alias}${printField(item.field)}${cast}`;
      }
      const params = `${item.hint !== undefined ? `!${printName(item.hint)}` : ''}${item.joinType ? `!${item.joinType}` : ''}`;
      const inner = printSelect(item.children);
      if (item.type === 'spread') return `...${printName(item.relation)}${params}(${inner})`;
      const alias = item.alias !== undefined ? `${printName(item.alias)}:` : '';
      return `${alias}${printName(item.relation)}${params}(${inner})`;
    })
    .join(',');
}

function quoteListValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A filter value `[not.]op.value`; `inLogic` quotes values for `or=(...)`. */
export function printOpExpr(expr: OpExpr, inLogic = false): string {
  const op = expr.operation;
  const value = (text: string): string => (inLogic ? quoteListValue(text) : text);
  let out: string;
  switch (op.kind) {
    case 'in':
      out = `in.(${op.values.map(quoteListValue).join(',')})`;
      break;
    case 'is':
      out = `is.${op.value}`;
      break;
    case 'isdistinct':
      out = `isdistinct.${value(op.value)}`;
      break;
    case 'fts':
      out = `${op.op}${op.language !== undefined ? `(${op.language})` : ''}.${value(op.value)}`;
      break;
    case 'simple':
      out = `${op.op}.${value(op.value)}`;
      break;
    case 'quant':
      out = `${op.op}${op.quantifier ? `(${op.quantifier})` : ''}.${value(op.value)}`;
      break;
  }
  return `${expr.negated ? 'not.' : ''}${out}`;
}

/** A logic tree as the value of `or=`/`and=` (with the operator prefix, e.g. `or(...)`). */
export function printLogicTree(tree: LogicTree): string {
  if (tree.type === 'filter') return `${printField(tree.filter.field)}.${printOpExpr(tree.filter.expr, true)}`;
  return `${tree.negated ? 'not.' : ''}${tree.op}(${tree.children.map(printLogicTree).join(',')})`;
}

/** `order=` value. */
export function printOrder(terms: OrderTerm[]): string {
  return terms
    .map((term) => {
      const base =
        term.relation !== undefined ? `${printName(term.relation)}(${printField(term.field)})` : printField(term.field);
      return `${base}${term.direction ? `.${term.direction}` : ''}${term.nulls ? `.nulls${term.nulls}` : ''}`;
    })
    .join(',');
}
