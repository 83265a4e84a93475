import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { LRUCache } from 'lru-cache';
import { toCelVariables, type WholeNumbers } from './cel-values.js';

/**
 * The one CEL environment of the areas' expressions (check `test`/`display`/`transform`,
 * scraper `expr:` fields, notification filters and templates, definition-of-done scripts,
 * playbook conditions and templates, topology expressions).
 * Every variable is dynamic (the data is users' JSON, without a schema), and mixed-type list
 * and map literals are allowed (`{"name": n, "pass": true}`). Values go in and come out through
 * cel-values.ts; only whether whole numbers are CEL ints is each area's choice.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });

/**
 * Parsed programs by source, shared by the areas: the same few expressions run for every
 * check run, scrape, event or roll-up, so parsing once matters at thousands of checks; the bound
 * keeps memory flat when specs churn.
 */
const programs = new LRUCache<string, ParseResult>({ max: 7000 });

/** The parsed program of `expression` (cached); throws cel-js's error when it does not parse. */
export function celProgram(expression: string): ParseResult {
  let program = programs.get(expression);
  if (!program) {
    program = environment.parse(expression);
    programs.set(expression, program);
  }
  return program;
}

/** The first line of a cel-js error; the rest is a source excerpt with a caret. */
export function celErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'invalid expression';
}

export type CelOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses (cached) and evaluates `expression` over `variables` (converted with toCel); never
 * throws. The value is CEL's own (BigInt, Map, Date, ...): fromCel makes it plain data.
 */
export function evaluateCel(
  expression: string,
  variables: Record<string, unknown>,
  wholeNumbers: WholeNumbers = 'double',
): CelOutcome {
  try {
    const value: unknown = celProgram(expression)(toCelVariables(variables, wholeNumbers));
    // Only async custom functions make evaluation asynchronous, and none are registered.
    if (value instanceof Promise) return { ok: false, error: 'asynchronous expressions are not supported' };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: celErrorText(error) };
  }
}

/** Why an expression does not parse, or undefined when it does (write-time validation). */
export function celParseProblem(expression: string): string | undefined {
  try {
    celProgram(expression);
    return undefined;
  } catch (error) {
    return celErrorText(error);
  }
}

/**
 * Why an expression does not compile (parse and type check, as cel-go's `Compile`), or
 * undefined when it does: with every variable dynamic, the check finds only what fails on
 * every evaluation whatever the data (`'a' + 1`, an unknown function).
 */
export function celCompileProblem(expression: string): string | undefined {
  try {
    const checked = celProgram(expression).check();
    return checked.valid ? undefined : celErrorText(checked.error ?? 'does not type-check');
  } catch (error) {
    return celErrorText(error);
  }
}
