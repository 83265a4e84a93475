/**
 * A tiny backtracking scanner that reports errors the way PostgREST's Parsec parsers do:
 * the furthest position reached wins; at that position the expectations of every parser
 * that failed there are listed, and the "unexpected" part is what the first one saw
 * (an end-of-input check, like Parsec's `eof`, takes precedence and quotes a character).
 */
export class ParseFailure {
  // Deliberately not an Error: backtracking throws often, and capturing a stack trace on
  // every alternative would dominate parsing time. It never escapes the parser.
  constructor(
    readonly position: number,
    readonly details: string,
  ) {}
}

/**
 * A bound of the engine's, not a grammar error: thrown past every alternative (no other
 * reading of the input could stay within the bound either) and turned into its own PGRST100.
 */
export class ParseLimitExceeded {
  constructor(
    /** Where the offending construct starts in the parameter. */
    readonly position: number,
    /** What exceeds the bound, e.g. `a JSON path deeper than 64 -> or ->> steps`. */
    readonly problem: string,
    /** How to stay within it. */
    readonly hint: string,
  ) {}
}

/** Thrown while backtracking; the message is built once, when parsing really fails. */
const BACKTRACK = new ParseFailure(-1, '');

/** Error state at the furthest failure, saved and restored around alternatives. */
export type ErrorState = {
  furthest: number;
  expected: string[];
  sysUnexpected: string | undefined;
  unexpected: string | undefined;
  message: string | undefined;
};

/** Scanner state over one parameter value. */
export class Scanner {
  pos = 0;
  private errors: ErrorState = {
    furthest: -1,
    expected: [],
    sysUnexpected: undefined,
    unexpected: undefined,
    message: undefined,
  };

  constructor(readonly input: string) {}

  /** Character at the cursor (plus offset), or undefined at the end. */
  peek(offset = 0): string | undefined {
    return this.input[this.pos + offset];
  }

  atEnd(): boolean {
    return this.pos >= this.input.length;
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos);
  }

  private at(position: number): ErrorState {
    if (position > this.errors.furthest) {
      this.errors = {
        furthest: position,
        expected: [],
        sysUnexpected: undefined,
        unexpected: undefined,
        message: undefined,
      };
    }
    return this.errors;
  }

  private record(label: string | undefined, sysUnexpected: string | undefined, position = this.pos): void {
    if (position < this.errors.furthest) return;
    const state = this.at(position);
    if (label !== undefined && !state.expected.includes(label)) state.expected.push(label);
    state.sysUnexpected ??= sysUnexpected;
  }

  private seen(position: number): string {
    const char = this.input[position];
    return char === undefined ? '' : JSON.stringify(char);
  }

  /** Consumes `text` if next; otherwise records it as expected (Parsec's `string`). */
  tryString(text: string): boolean {
    if (this.startsWith(text)) {
      this.pos += text.length;
      return true;
    }
    let index = 0;
    while (index < text.length && this.input[this.pos + index] === text[index]) index += 1;
    this.record(JSON.stringify(text), this.seen(this.pos + index));
    return false;
  }

  /** Records a character-class expectation at the cursor (Parsec's `satisfy` family). */
  expect(label: string): void {
    this.record(label, this.seen(this.pos));
  }

  /** Records an end-of-input expectation (Parsec's `eof`, whose message wins). */
  expectEnd(): void {
    if (this.pos < this.errors.furthest) return;
    const state = this.at(this.pos);
    if (!state.expected.includes('end of input')) state.expected.push('end of input');
    const char = this.input[this.pos];
    if (char !== undefined) state.unexpected ??= `'${char}'`;
  }

  /** Fails with a custom message at the cursor (Parsec's `fail`). */
  failMessage(message: string): never {
    const state = this.at(this.pos);
    state.message ??= message;
    throw BACKTRACK;
  }

  /**
   * Fails at `position`, expecting `label` there: for alternatives that each matched a
   * different number of characters before failing, where Parsec reports the furthest one
   * (with a `<?>` label replacing what each alternative expected).
   */
  failAt(position: number, label: string): never {
    this.record(label, this.seen(position), position);
    throw BACKTRACK;
  }

  /** Fails at the furthest recorded position, optionally expecting `label` here. */
  fail(label?: string): never {
    if (label !== undefined) this.expect(label);
    throw BACKTRACK;
  }

  /** Runs `parse`, restoring the cursor when it fails (Parsec's `try`). */
  attempt<T>(parse: () => T): T | undefined {
    const start = this.pos;
    try {
      return parse();
    } catch (error) {
      if (error instanceof ParseFailure) {
        this.pos = start;
        return undefined;
      }
      throw error;
    }
  }

  /** Current error state (to discard errors of alternatives a later parser supersedes). */
  snapshot(): ErrorState {
    return { ...this.errors, expected: [...this.errors.expected] };
  }

  restore(state: ErrorState): void {
    this.errors = { ...state, expected: [...state.expected] };
  }

  /**
   * Runs `parse`; when it fails without consuming, its expectations are replaced by `label`
   * (Parsec's `<?>`), merged with what was expected before at the same position.
   */
  labelled<T>(label: string, parse: () => T): T {
    const before = this.snapshot();
    const start = this.pos;
    this.errors = { furthest: -1, expected: [], sysUnexpected: undefined, unexpected: undefined, message: undefined };
    try {
      const result = parse();
      this.merge(before);
      return result;
    } catch (error) {
      if (!(error instanceof ParseFailure) || this.pos !== start) {
        this.merge(before);
        throw error;
      }
      this.errors.expected = [label];
      this.merge(before);
      throw BACKTRACK;
    }
  }

  /**
   * Adds the expectations of `other` (an earlier error state) to the current ones: Parsec
   * keeps what failed alternatives expected when the next alternative fails too without
   * consuming input. `other`'s expectations come first, in the order they were tried.
   */
  merge(other: ErrorState): void {
    if (other.furthest > this.errors.furthest) {
      this.errors = other;
      return;
    }
    if (other.furthest < this.errors.furthest) return;
    this.errors = {
      furthest: other.furthest,
      expected: [...other.expected, ...this.errors.expected.filter((label) => !other.expected.includes(label))],
      sysUnexpected: other.sysUnexpected ?? this.errors.sysUnexpected,
      unexpected: other.unexpected ?? this.errors.unexpected,
      message: other.message ?? this.errors.message,
    };
  }

  /** Skips spaces and tabs (PostgREST's `ws`). */
  skipWs(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos += 1;
  }

  /** The error message for the furthest failure (call once parsing has failed). */
  failure(): ParseFailure {
    const state = this.errors;
    const position = Math.max(state.furthest, 0);
    const parts: string[] = [];
    if (state.unexpected !== undefined) parts.push(`unexpected ${state.unexpected}`);
    else if (state.sysUnexpected !== undefined || state.expected.length > 0 || state.message === undefined) {
      parts.push(state.sysUnexpected ? `unexpected ${state.sysUnexpected}` : 'unexpected end of input');
    }
    const expected = state.expected;
    if (expected.length > 0) {
      parts.push(
        `expecting ${expected.length === 1 ? expected[0] : `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}`}`,
      );
    }
    if (state.message !== undefined) parts.push(state.message);
    return new ParseFailure(position, parts.join(' '));
  }
}

/** Haskell's `show` for strings, which PostgREST uses to quote the source in messages. */
export function haskellShow(text: string): string {
  let out = '"';
  const chars = [...text];
  chars.forEach((char, index) => {
    const code = char.codePointAt(0) ?? 0;
    let piece: string;
    if (char === '"') piece = '\\"';
    else if (char === '\\') piece = '\\\\';
    else if (char === '\n') piece = '\\n';
    else if (char === '\t') piece = '\\t';
    else if (char === '\r') piece = '\\r';
    else if (code < 0x20 || code >= 0x7f) {
      piece = `\\${code}`;
      const next = chars[index + 1];
      if (next !== undefined && /[0-9]/.test(next)) piece += '\\&';
    } else piece = char;
    out += piece;
  });
  return `${out}"`;
}

/** PostgREST's message for a parse error: `"source" (line L, column C)`. */
export function positionMessage(source: string, input: string, position: number): string {
  let line = 1;
  let column = 1;
  for (let index = 0; index < position && index < input.length; index += 1) {
    if (input[index] === '\n') {
      line += 1;
      column = 1;
    } else column += 1;
  }
  return `${haskellShow(source)} (line ${line}, column ${column})`;
}
