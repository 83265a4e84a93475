import { CANARY_YAML_LIMITS } from '@lookout/contracts';
import { CST, Lexer, parseAllDocuments } from 'yaml';

/**
 * Reading canary YAML within bounds. YAML parsers recurse once per level of nesting and expand
 * aliases as they build values: a 960 kB body of nested brackets kept the parser busy for
 * seconds before it overflowed the stack, and a few lines of aliases expand to millions of
 * nodes. So the text is measured first, then scanned token by token (the `yaml` package's
 * lexer, which neither recurses nor builds anything) until it exceeds a bound, and only a text
 * within every bound is parsed. Pure and synchronous: `health-yaml-reader.ts` runs large texts
 * in a worker thread, `lookout apply` calls it directly.
 */

/** The bounds a text is read within. */
export type YamlLimits = {
  /** Largest text, in UTF-8 bytes. */
  maxBytes: number;
  /** Deepest nesting of block mappings, block sequences and flow collections. */
  maxDepth: number;
  /** Most alias references (`*name`); also bounds how far aliases may expand. */
  maxAliases: number;
  /** Most documents. */
  maxDocuments: number;
};

/** The bounds of a YAML body of `POST /api/canary/apply`. */
export const REQUEST_YAML_LIMITS: YamlLimits = {
  maxBytes: CANARY_YAML_LIMITS.requestBytes,
  maxDepth: CANARY_YAML_LIMITS.depth,
  maxAliases: CANARY_YAML_LIMITS.aliases,
  maxDocuments: CANARY_YAML_LIMITS.documents,
};

/** The bounds of a file `lookout apply` reads: larger, since one file may hold many canaries. */
export const FILE_YAML_LIMITS: YamlLimits = { ...REQUEST_YAML_LIMITS, maxBytes: CANARY_YAML_LIMITS.fileBytes };

/** Which bound a text exceeded. */
export type YamlLimit = 'size' | 'depth' | 'aliases' | 'documents';

/** One document of a YAML file, or why it could not be read. */
export type CanaryFileDocument =
  { ok: true; index: number; value: unknown } | { ok: false; index: number; message: string };

/** The documents of a text, or the bound it exceeded (nothing of it was parsed then). */
export type CanaryYamlRead =
  { ok: true; documents: CanaryFileDocument[] } | { ok: false; limit: YamlLimit; message: string };

/** A block collection being read: the column of its entries, and whether it is a sequence. */
type BlockLevel = { column: number; sequence: boolean };

/** Token types that begin a node, and so may begin an implicit key of a block mapping. */
const NODE_STARTS = new Set(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'alias', 'anchor', 'tag']);

function exceeded(limit: YamlLimit, limits: YamlLimits): { ok: false; limit: YamlLimit; message: string } {
  switch (limit) {
    case 'size':
      return {
        ok: false,
        limit,
        message: `The YAML is larger than ${limits.maxBytes} bytes; split it into smaller files or documents.`,
      };
    case 'depth':
      return {
        ok: false,
        limit,
        message: `The YAML nests mappings and lists more than ${limits.maxDepth} levels deep (a canary needs about ten); flatten it.`,
      };
    case 'aliases':
      return {
        ok: false,
        limit,
        message: `The YAML uses more than ${limits.maxAliases} aliases (*name); write the repeated values out instead.`,
      };
    case 'documents':
      return {
        ok: false,
        limit,
        message: `The YAML holds more than ${limits.maxDocuments} documents; split it into several files.`,
      };
  }
}

/**
 * Checks a text against the bounds without parsing it: its size, then, token by token, its
 * nesting, aliases and documents, stopping at the first bound exceeded (so 480,000 opening
 * brackets cost as much as the first `maxDepth + 1`).
 *
 * Nesting is measured as the parser will see it: every flow collection (`[`, `{`) is a level,
 * and so is every block collection, told apart by the column of its entries (a sequence may
 * sit at its parent mapping's column, `key:\n- item`). Text inside scalars, quoted or block
 * (`|`, `>`), and comments does not count.
 */
export function checkYamlLimits(
  text: string,
  limits: YamlLimits,
): { ok: true } | { ok: false; limit: YamlLimit; message: string } {
  // Characters are at most 3 UTF-8 bytes (4 for a surrogate pair, which is 2 characters), so
  // only texts near the bound need measuring.
  if (
    text.length > limits.maxBytes ||
    (text.length * 3 > limits.maxBytes && Buffer.byteLength(text) > limits.maxBytes)
  ) {
    return exceeded('size', limits);
  }
  const blocks: BlockLevel[] = [];
  let flow = 0;
  let column = 0;
  let aliases = 0;
  let documents = 0;
  let inDocument = false;
  let scalarFollows = false;
  /** Where the node that may turn out to be an implicit mapping key began on this line. */
  let entryColumn: number | undefined;

  const enterBlock = (at: number, sequence: boolean): boolean => {
    // Leaving deeper collections; a mapping at a sequence's column closes the sequence (the
    // sequence was that mapping's value: `key:\n- a\nnext: b`).
    for (let top = blocks.at(-1); top; top = blocks.at(-1)) {
      if (top.column > at || (top.column === at && top.sequence && !sequence)) blocks.pop();
      else break;
    }
    const top = blocks.at(-1);
    if (!top || top.column !== at || top.sequence !== sequence) blocks.push({ column: at, sequence });
    return blocks.length + flow <= limits.maxDepth;
  };

  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (scalarFollows) {
      // The source of a plain or block scalar: text, whatever it looks like.
      scalarFollows = false;
    } else {
      if ((type !== null && NODE_STARTS.has(type)) || type === 'flow-map-start' || type === 'flow-seq-start') {
        if (!inDocument) {
          inDocument = true;
          documents += 1;
        }
        if (flow === 0) entryColumn ??= column;
      }
      switch (type) {
        case 'scalar':
          // A zero-width marker: the scalar's source is the next token.
          scalarFollows = true;
          continue;
        case 'byte-order-mark':
        case 'doc-mode':
        case 'flow-error-end':
          continue;
        case 'doc-start':
          documents += 1;
          inDocument = true;
          blocks.length = 0;
          flow = 0;
          break;
        case 'doc-end':
          inDocument = false;
          blocks.length = 0;
          flow = 0;
          break;
        case 'alias':
          aliases += 1;
          if (aliases > limits.maxAliases) return exceeded('aliases', limits);
          break;
        case 'flow-map-start':
        case 'flow-seq-start':
          flow += 1;
          if (blocks.length + flow > limits.maxDepth) return exceeded('depth', limits);
          break;
        case 'flow-map-end':
        case 'flow-seq-end':
          if (flow > 0) flow -= 1;
          break;
        case 'seq-item-ind':
          if (flow === 0) {
            if (!enterBlock(column, true)) return exceeded('depth', limits);
            entryColumn = undefined;
          }
          break;
        case 'explicit-key-ind':
          if (flow === 0) {
            if (!enterBlock(column, false)) return exceeded('depth', limits);
            entryColumn = undefined;
          }
          break;
        case 'map-value-ind':
          if (flow === 0) {
            if (!enterBlock(entryColumn ?? column, false)) return exceeded('depth', limits);
            entryColumn = undefined;
          }
          break;
        default:
          break;
      }
      if (documents > limits.maxDocuments) return exceeded('documents', limits);
    }
    const lastNewline = token.lastIndexOf('\n');
    if (lastNewline === -1) column += token.length;
    else {
      // A new line (a line break, or a multi-line scalar ending on one): nothing on it yet.
      column = token.length - lastNewline - 1;
      entryColumn = undefined;
    }
  }
  return { ok: true };
}

/**
 * Reads every document of a YAML text (`---` separated; JSON is YAML too) within `limits`.
 * Empty documents are skipped; a syntax error says where it is (`line 4, column 3: ...`).
 */
export function readCanaryYaml(text: string, limits: YamlLimits): CanaryYamlRead {
  const checked = checkYamlLimits(text, limits);
  if (!checked.ok) return checked;
  const parsed = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const documents: CanaryFileDocument[] = [];
  for (const [index, document] of list.entries()) {
    if (document.errors.length > 0) {
      const first = document.errors[0];
      const where = first?.linePos?.[0] ? `line ${first.linePos[0].line}, column ${first.linePos[0].col}: ` : '';
      documents.push({ ok: false, index, message: `${where}${(first?.message ?? 'not valid YAML').split('\n')[0]}` });
      continue;
    }
    let value: unknown;
    try {
      // The scan bounded the number of aliases; this bounds what they expand to (an alias of
      // an alias of ... counts every node it stands for).
      value = document.toJS({ maxAliasCount: limits.maxAliases });
    } catch (error) {
      if (error instanceof ReferenceError && /alias count/i.test(error.message)) return exceeded('aliases', limits);
      documents.push({ ok: false, index, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (value === null || value === undefined) continue;
    documents.push({ ok: true, index, value });
  }
  return { ok: true, documents };
}
